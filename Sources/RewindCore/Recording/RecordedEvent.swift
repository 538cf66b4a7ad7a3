import Foundation
import RewindJSON

/// One recorded step, encoded: what a sink writes.
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
    /// The digest of the canonical state after this step.
    public var digest: StateDigest
    public var state: StateRecord

    public init(
        step: Int, time: Date, origin: String, actionName: String, action: JSONValue, cause: Int?,
        outputs: [JSONValue], digest: StateDigest, state: StateRecord
    ) {
        self.step = step
        self.time = time
        self.origin = origin
        self.actionName = actionName
        self.action = action
        self.cause = cause
        self.outputs = outputs
        self.digest = digest
        self.state = state
    }
}

/// Steps the recorder could not write, marked in the log so that no loss is silent.
public struct RecordingGap: Sendable, Equatable {
    /// The first and last step that are missing.
    public var steps: ClosedRange<Int>
    /// Why they are missing, like `writer fell behind` or the sink's error.
    public var reason: String

    public init(steps: ClosedRange<Int>, reason: String) {
        self.steps = steps
        self.reason = reason
    }
}

/// What a sink stores at the start of a session.
public struct SessionHeader: Sendable, Equatable {
    public var name: String?
    public var flow: String
    public var startedAt: Date
    /// The app's version of its state and action types.
    public var schemaVersion: Int
    public var initialState: JSONValue
    public var initialDigest: StateDigest
    /// Paths of the fields that were redacted, like `password`.
    public var redactedPaths: Set<String>

    public init(
        name: String?, flow: String, startedAt: Date, schemaVersion: Int,
        initialState: JSONValue, initialDigest: StateDigest, redactedPaths: Set<String>
    ) {
        self.name = name
        self.flow = flow
        self.startedAt = startedAt
        self.schemaVersion = schemaVersion
        self.initialState = initialState
        self.initialDigest = initialDigest
        self.redactedPaths = redactedPaths
    }
}
