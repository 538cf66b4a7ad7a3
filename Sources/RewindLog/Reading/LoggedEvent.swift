import Foundation
import RewindCore
import RewindJSON

/// One recorded step as read back from a log.
///
/// Its own type beside RewindCore's `RecordedEvent`: a step read may store neither a keyframe
/// nor a patch (a damaged row, which `rewind check` names), and a reader that walks a
/// session keeps the stored form, never a whole state it did not ask for.
public struct LoggedEvent: Sendable, Equatable {
    public var step: Int
    public var time: Date
    public var origin: String
    public var actionName: String
    public var action: JSONValue
    public var cause: Int?
    public var outputs: [JSONValue]
    /// The follow-up actions the step sent and the work it started; nil in a session written
    /// before format 5 ("effects not recorded").
    public var effects: RecordedEffects?
    public var digest: StateDigest
    /// The whole state when this step is a keyframe.
    public var keyframe: JSONValue?
    /// The change from the previous step when it is not.
    public var patch: JSONPatch?

    /// What the step asked for, as a replay compares it.
    public var behaviour: RecordedBehaviour {
        RecordedBehaviour(cause: cause, outputs: outputs, effects: effects)
    }
}
