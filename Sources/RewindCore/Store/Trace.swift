/// A middleware that keeps every step in memory: for tests, drivers and printing a timeline.
///
/// It keeps every state alive, so each step's mutation copies what it changes; don't use it
/// where dispatch speed matters.
@MainActor
public final class Trace<State, Action: Sendable>: StoreMiddleware {
    /// One dispatched action and the state after it.
    public struct Step {
        public let context: StepContext
        public let action: Action
        public let outputs: [Action]
        public let state: State
    }

    /// The state at step 0, once the store has started.
    public private(set) var initialState: State?
    /// Every step so far, in order.
    public private(set) var steps: [Step] = []

    public init() {}

    /// The state after `step` (0 is the initial state).
    public func state(at step: Int) -> State? {
        step == 0 ? initialState : steps.indices.contains(step - 1) ? steps[step - 1].state : nil
    }

    public func storeDidStart(initialState: State) {
        self.initialState = initialState
    }

    public func didReduce(_ action: Action, state: State, context: StepContext, outputs: [Action]) {
        steps.append(Step(context: context, action: action, outputs: outputs, state: state))
    }
}

extension Trace.Step: Sendable where State: Sendable {}
extension Trace.Step: Equatable where State: Equatable, Action: Equatable {}
