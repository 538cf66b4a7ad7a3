import Foundation
import RewindCore

/// A named, scripted session of one flow: the same actions, payloads and times on every run.
public struct ScriptedSession: Sendable {
    public let name: String
    /// The name of the flow it drives, like `login`.
    public let flow: String
    /// One line on what the session shows.
    public let summary: String
    private let play: @MainActor @Sendable (any SessionHost, Date) async -> Void

    /// The seed of every scripted session's backend.
    public static let seed: UInt64 = 1

    init<Flow: SeedFlow>(
        _ name: String,
        _ flow: Flow.Type,
        summary: String,
        failing plannedFailures: [Endpoint] = [],
        script: @escaping @MainActor @Sendable (Driver<Flow>) async -> Void
    ) {
        self.name = name
        self.flow = Flow.name
        self.summary = summary
        self.play = { host, start in
            let clock = SimulatedClock(start: start)
            let backend = FakeBackend(seed: Self.seed, clock: clock)
            for endpoint in plannedFailures { backend.fail(endpoint) }
            let session = SessionDescriptor(name: name, flow: Flow.name, now: { clock.now })
            let reducer = Flow.reducer(backend: backend)
            let driver = Driver<Flow>(backend: backend, middleware: host.middleware(for: session, reducer: reducer))
            host.storeDidStart(driver.store, session: session, reducer: reducer)
            await script(driver)
            host.sessionDidFinish(session)
        }
    }

    /// Plays the session from its first action to its last, watched by `host`.
    ///
    /// - Parameter start: the simulated time of step 0.
    @MainActor
    public func run(host: some SessionHost, start: Date) async {
        await play(host, start)
    }

    /// Every scripted session, login first, then photos, then the whole app.
    public static let all: [ScriptedSession] = LoginScripts.all + PhotosScripts.all + AppScripts.all

    /// The scripted session called `name`, if there is one.
    public static func named(_ name: String) -> ScriptedSession? {
        all.first { $0.name == name }
    }
}
