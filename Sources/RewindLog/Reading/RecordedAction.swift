import RewindJSON

/// One step's action, digest and behaviour: all a replay reads while states match.
public struct RecordedAction: Sendable {
    public var step: Int
    public var origin: String
    public var actionName: String
    public var action: JSONValue
    public var digest: StateDigest
    /// What the step asked for, which a replay compares too.
    public var behaviour: RecordedBehaviour
}
