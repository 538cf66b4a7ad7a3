import Foundation
import RewindJSON

/// One recorded step, encoded: what a sink writes.
///
/// Its own type beside RewindLog's `LoggedEvent`: it is RewindCore's, which an app's own sink
/// receives and the log's module builds on (the arrow points one way), and its state is always
/// one of a whole state or a change, as the recorder made it.
public struct RecordedEvent: Sendable, Equatable {
    /// How the state after this step is stored.
    public enum StateRecord: Sendable, Equatable {
        /// The whole state.
        case keyframe(JSONValue)
        /// The change from the previous step's state.
        case patch(JSONPatch)
    }

    public var step: Int
    public var time: Date
    /// The screen or child that sent the action, like `photos/thumbnail[7]`.
    public var origin: String
    /// The action's case name, like `didTapLogin`.
    public var actionName: String
    /// The whole action, canonical and redacted.
    public var action: JSONValue
    /// The step whose effect sent this action, if any.
    public var cause: Int?
    /// The outputs this step emitted, each a whole action.
    public var outputs: [JSONValue]
    /// The follow-up actions the step sent and the work it started; nil for a step of a session
    /// recorded before a log held them ("effects not recorded").
    public var effects: RecordedEffects?
    /// The digest of the canonical state after this step.
    public var digest: StateDigest
    public var state: StateRecord

    public init(
        step: Int, time: Date, origin: String, actionName: String, action: JSONValue, cause: Int?,
        outputs: [JSONValue], effects: RecordedEffects?, digest: StateDigest, state: StateRecord
    ) {
        self.step = step
        self.time = time
        self.origin = origin
        self.actionName = actionName
        self.action = action
        self.cause = cause
        self.outputs = outputs
        self.effects = effects
        self.digest = digest
        self.state = state
    }
}
