import RewindJSON

/// The outcome of reducing one action from a given state, outside a replay's sequence.
public struct ReplayProbe: Sendable, Equatable {
    /// The encoded state after the action.
    public var state: JSONValue
    /// Whether the reducer read the characters of a redacted secret (its ``Secret/value``,
    /// `==` or hash), which the placeholder only pretends to have.
    public var readSecret: Bool

    public init(state: JSONValue, readSecret: Bool) {
        self.state = state
        self.readSecret = readSecret
    }
}
