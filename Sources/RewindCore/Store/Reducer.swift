/// A pure function from a state and an action to the next state and the work to do next.
///
/// Reducers are deterministic: they read nothing but their inputs and injected dependencies
/// (no `Date()`, `UUID()`, randomness or unordered iteration), so replaying the recorded
/// actions reproduces every recorded state. Effects never write state; their results come
/// back as actions.
public protocol Reducer<State, Action> {
    associatedtype State
    associatedtype Action: Sendable

    /// Applies `action` to `state` and returns the effects it starts.
    func reduce(into state: inout State, action: Action) -> Effect<Action>
}
