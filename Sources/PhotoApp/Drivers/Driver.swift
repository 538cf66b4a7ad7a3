import Foundation
import RewindCore

/// Plays a user on one flow: sends an action, lets the simulated user think, and waits for
/// every effect to come back before the next one.
@MainActor
public final class Driver<Flow: SeedFlow> {
    public let store: Store<Flow.Feature.State, Flow.Feature.Action>
    public let backend: FakeBackend
    public var clock: SimulatedClock { backend.clock }

    /// Starts a store for the flow, watched by `middleware`, with effects run in order.
    public init(backend: FakeBackend, middleware: [any StoreMiddleware<Flow.Feature.State, Flow.Feature.Action>]) {
        self.backend = backend
        self.store = Store(
            initialState: Flow.initialState,
            reducer: Flow.reducer(backend: backend),
            middleware: middleware,
            execution: .manual
        )
    }

    /// The current state.
    public var state: Flow.Feature.State { store.state }

    /// Waits `thinkTime` on the simulated clock, sends `action`, and runs its effects to the end.
    public func send(_ action: Flow.Feature.Action, after thinkTime: Duration = .milliseconds(600)) async {
        clock.advance(by: thinkTime)
        store.send(action)
        await store.settle()
    }

    /// Types `text` one character at a time, as a text field reports each edit.
    public func type(_ text: String, _ action: (String) -> Flow.Feature.Action) async {
        var typed = ""
        for character in text {
            typed.append(character)
            await send(action(typed), after: .milliseconds(140))
        }
    }
}
