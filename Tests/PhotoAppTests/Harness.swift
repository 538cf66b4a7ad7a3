import Foundation
import PhotoApp
import RewindCore

/// A driven store of one flow with every step kept, for assertions.
@MainActor
struct Harness<Flow: SeedFlow> {
    let trace = Trace<Flow.Feature.State, Flow.Feature.Action>()
    let driver: Driver<Flow>

    init(_ flow: Flow.Type, failing: [Endpoint] = [], photoCount: Int = 12) {
        let backend = FakeBackend(seed: 1, clock: SimulatedClock(start: .testEpoch), photoCount: photoCount)
        for endpoint in failing { backend.fail(endpoint) }
        driver = Driver<Flow>(backend: backend, middleware: [trace])
    }

    var state: Flow.Feature.State { driver.state }

    /// Sends each action and runs its effects to the end; returns the steps they produced.
    @discardableResult
    func send(_ actions: Flow.Feature.Action...) async -> [Trace<Flow.Feature.State, Flow.Feature.Action>.Step] {
        let first = trace.steps.count
        for action in actions { await driver.send(action) }
        return Array(trace.steps[first...])
    }
}

extension Date {
    static let testEpoch = Date(timeIntervalSince1970: 1_800_000_000)
}
