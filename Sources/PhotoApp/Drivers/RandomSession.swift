import Foundation
import RewindCore

/// A seeded random session: a plausible user playing one flow for a number of steps.
public struct RandomSession: Sendable {
    public let flow: String
    public let seed: UInt64
    /// The session ends at the first action that reaches this many steps; the effects of that
    /// action still finish, so a session may run a few steps past it.
    public let steps: Int
    /// The number of photos the backend serves.
    public var photoCount = 12
    /// The chance of any backend call failing.
    public var failureRate = 0.05

    /// Describes a session of the flow called `flow`; nil when there is no such flow.
    public init?(flow: String, seed: UInt64, steps: Int) {
        guard SeedFlows.names.contains(flow) else { return nil }
        self.flow = flow
        self.seed = seed
        self.steps = steps
    }

    /// The name the session carries in the log.
    public var name: String { "random-\(flow)-seed\(seed)-\(steps)" }

    /// Plays the session, watched by `host`.
    @MainActor
    public func run(host: some SessionHost, start: Date) async {
        switch flow {
        case LoginFlow.name: await play(LoginFlow.self, host: host, start: start) { $0.nextAction(on: $1) }
        case PhotosFlow.name: await play(PhotosFlow.self, host: host, start: start) { $0.nextAction(on: $1) }
        default: await play(AppFlow.self, host: host, start: start) { $0.nextAction(on: $1) }
        }
    }

    @MainActor
    private func play<Flow: SeedFlow>(
        _ flow: Flow.Type, host: some SessionHost, start: Date,
        choose: (inout RandomUser, Flow.Feature.State) -> Flow.Feature.Action
    ) async {
        let clock = SimulatedClock(start: start)
        let backend = FakeBackend(seed: seed, clock: clock, photoCount: photoCount, failureRate: failureRate)
        let session = SessionDescriptor(name: name, flow: Flow.name, now: { clock.now })
        let reducer = Flow.reducer(backend: backend)
        let driver = Driver<Flow>(backend: backend, middleware: host.middleware(for: session, reducer: reducer))
        host.storeDidStart(driver.store, session: session, reducer: reducer)
        var user = RandomUser(seed: seed)
        while driver.store.step < steps {
            let action = choose(&user, driver.state)
            await driver.send(action, after: user.thinkTime())
        }
        host.sessionDidFinish(session)
    }
}
