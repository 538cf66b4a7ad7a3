import Foundation
import RewindCore
import RewindReplay

/// The photo app's flows as a replayer and a command line see them: recordings of `login`,
/// `photos` and `app` sessions replay against the current reducers, and the scripted and random
/// drivers record new ones.
public enum SeedFlows {
    /// The flows by name. Effects never run on replay, so the backend is never called.
    public static var registry: ReplayRegistry {
        ReplayRegistry([
            ReplayFlow(LoginFlow.name) { LoginFlow.reducer(backend: idleBackend) },
            ReplayFlow(PhotosFlow.name) { PhotosFlow.reducer(backend: idleBackend) },
            ReplayFlow(AppFlow.name) { AppFlow.reducer(backend: idleBackend) },
        ])
    }

    /// The names of every seed flow.
    public static let names = [LoginFlow.name, PhotosFlow.name, AppFlow.name]

    /// Every scripted session, as `record --script` and `demo` play them.
    public static var scripts: [SessionScript] {
        ScriptedSession.all.map { session in
            SessionScript(name: session.name, flow: session.flow, summary: session.summary) { host, start in
                await session.run(host: host, start: start)
            }
        }
    }

    /// A seeded random user playing `flow` for `steps` steps; nil for a flow it cannot play.
    public static func randomScript(flow: String, seed: UInt64, steps: Int) -> SessionScript? {
        guard let session = RandomSession(flow: flow, seed: seed, steps: steps) else { return nil }
        return SessionScript(name: session.name, flow: flow, summary: "a seeded random user") { host, start in
            await session.run(host: host, start: start)
        }
    }

    private static var idleBackend: FakeBackend {
        FakeBackend(seed: 0, clock: SimulatedClock(start: Date(timeIntervalSince1970: 0)))
    }
}
