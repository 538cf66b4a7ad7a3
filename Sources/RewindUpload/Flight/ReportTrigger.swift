import Atomics

/// When a ``FlightRecorder`` reports its session: a condition on each step, given as code, and
/// the reason it gives.
///
/// A trigger fires at the step where its condition starts to hold, not again while it keeps
/// holding: a state predicate that stays true for a hundred steps reports once, and fires
/// again only after it was false at some step. Conditions run after each step, on the thread
/// that dispatches (a store's: the main actor), with the store's action, state and outputs;
/// keep them cheap.
public struct ReportTrigger<State, Action>: Sendable {
    /// What the session's report says when this trigger fires (at most 1,000 bytes are kept).
    public let reason: String
    @usableFromInline let holds: @Sendable (_ action: Action, _ state: State, _ outputs: [Action]) -> Bool

    /// Fires when `condition` holds of a step's action, state and outputs together.
    @inlinable
    public init(_ reason: String, when condition: @escaping @Sendable (_ action: Action, _ state: State, _ outputs: [Action]) -> Bool) {
        self.reason = reason
        holds = condition
    }

    /// Fires at an action that `condition` holds of: `.action("login failed") { $0 == .loginFailed }`.
    @inlinable
    public static func action(_ reason: String, where condition: @escaping @Sendable (Action) -> Bool) -> Self {
        Self(reason) { action, _, _ in condition(action) }
    }

    /// Fires when the state after a step starts to satisfy `condition`:
    /// `.state("error shown") { $0.error != nil }`.
    @inlinable
    public static func state(_ reason: String, where condition: @escaping @Sendable (State) -> Bool) -> Self {
        Self(reason) { _, state, _ in condition(state) }
    }

    /// Fires at a step that emits an output the app marks as an error:
    /// `.output("sync failed") { $0.isError }`.
    @inlinable
    public static func output(_ reason: String, where isError: @escaping @Sendable (Action) -> Bool) -> Self {
        Self(reason) { _, _, outputs in outputs.contains(where: isError) }
    }

    /// What a ``FlightRecorder`` runs after each step: asks each of `triggers` whether it holds
    /// and calls `fire` with the reason of each that starts to.
    ///
    /// Inlinable, and made by the flight recorder's inlinable initializers, so that it is
    /// compiled in the app's module for its types: with the same loop in generic code, login
    /// dispatch through a flight recorder took 650-870 ns, against 370-440 ns with this, and
    /// 160-180 ns with the recorder alone (`dispatch_flight_ns`, release builds, 2 runs each).
    @inlinable
    static func evaluator(_ triggers: [Self]) -> @Sendable (Action, State, [Action], (String) -> Void) -> Void {
        // Whether each trigger held at the last step: only the store's dispatch, one step at a
        // time, reads and writes them.
        let held = triggers.map { _ in ManagedAtomic(false) }
        return { action, state, outputs, fire in
            for index in triggers.indices {
                let holds = triggers[index].holds(action, state, outputs)
                let heldBefore = held[index].exchange(holds, ordering: .relaxed)
                if holds && !heldBefore { fire(triggers[index].reason) }
            }
        }
    }
}
