/// Sees every action with the state before and after it: the place where a recorder plugs in.
///
/// Both states are passed borrowed. A middleware that keeps a state alive makes the reducer's
/// next mutation of it copy its storage (copy-on-write), so keep states only when you need them.
@MainActor
public protocol StoreMiddleware<State, Action>: AnyObject {
    associatedtype State
    associatedtype Action: Sendable

    /// Called once, when the store is created, with its initial state (step 0).
    func storeDidStart(initialState: State)

    /// Called before the reducer runs `action`, with the state it will change.
    func willReduce(_ action: Action, state: State, context: StepContext)

    /// Called after the reducer ran `action`, with the new state and the outputs it emitted.
    func didReduce(_ action: Action, state: State, context: StepContext, outputs: [Action])

    /// Called after the reducer ran `action`, with the new state and all its effect asked for:
    /// outputs, follow-up actions and work. By default, calls
    /// ``didReduce(_:state:context:outputs:)``.
    func didReduce(_ action: Action, state: State, context: StepContext, asked: EffectSummary<Action>)
}

extension StoreMiddleware {
    public func storeDidStart(initialState: State) {}
    public func willReduce(_ action: Action, state: State, context: StepContext) {}
    public func didReduce(_ action: Action, state: State, context: StepContext, asked: EffectSummary<Action>) {
        didReduce(action, state: state, context: context, outputs: asked.outputs)
    }
}
