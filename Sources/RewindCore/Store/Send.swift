/// Sends the results of an effect back into the store as actions.
public struct Send<Action: Sendable>: Sendable {
    let deliver: @MainActor @Sendable (Action) -> Void

    /// Wraps a closure that delivers actions on the main actor.
    public init(_ deliver: @escaping @MainActor @Sendable (Action) -> Void) {
        self.deliver = deliver
    }

    /// Sends `action` to the store.
    public func callAsFunction(_ action: Action) async {
        await deliver(action)
    }
}
