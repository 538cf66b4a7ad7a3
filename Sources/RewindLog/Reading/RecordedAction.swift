import RewindJSON

/// One step's action and digest: all a replay reads while states match.
public struct RecordedAction: Sendable {
    public var step: Int
    public var origin: String
    public var actionName: String
    public var action: JSONValue
    public var digest: StateDigest
}
