import RewindJSON

/// The outcome of reducing one action from a given state, outside a replay's sequence: a
/// trial run of the step, for telling nondeterminism and secret-reading steps apart.
public struct ReplayTrial: Sendable, Equatable {
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

/// The name ``ReplayTrial`` had: "probe" names only `rewind-recording-probe` now.
@available(*, deprecated, renamed: "ReplayTrial")
public typealias ReplayProbe = ReplayTrial
