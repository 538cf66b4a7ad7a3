import Foundation
import RewindCore
import RewindReplay

/// The photo app's flows as a replayer and a command line see them: recordings of `login`,
/// `photos` and `app` sessions replay against the current reducers, and the scripted and random
/// drivers record new ones.
public enum SeedFlows {
    /// The flows by name. Effects never run on replay, so the backend is never called; nor in
    /// a test `rewind write-test` writes, whose reducers these expressions build.
    public static var registry: ReplayRegistry {
        ReplayRegistry([
            ReplayFlow(LoginFlow.name, testReducer: "LoginFeature(backend: .idle)") { LoginFlow.reducer(backend: .idle) },
            ReplayFlow(PhotosFlow.name, testReducer: "PhotosFeature(backend: .idle)") { PhotosFlow.reducer(backend: .idle) },
            ReplayFlow(AppFlow.name, testReducer: "AppFeature(backend: .idle)") { AppFlow.reducer(backend: .idle) },
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
}
