import RewindJSON

/// One step's action, digest and behaviour: all a replay reads while states match.
package struct RecordedAction: Sendable {
    package var step: Int
    package var origin: String
    package var actionName: String
    package var action: JSONValue
    package var digest: StateDigest
    /// What the step asked for, which a replay compares too.
    package var behaviour: RecordedBehaviour
}
