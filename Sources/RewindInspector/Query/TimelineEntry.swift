import RewindJSON
import RewindLog

/// One line of a session's timeline: an action and what it changed.
public struct TimelineEntry: Sendable, Equatable {
    public var step: Int
    /// Seconds since the session started.
    public var offset: Double
    public var origin: String
    public var name: String
    /// The step whose effect sent this action, if any.
    public var cause: Int?
    /// The whole encoded action, for its payload.
    public var action: JSONValue
    /// The names of the outputs the step emitted.
    public var outputs: [String]
    /// The leaf-level changes from the previous state to this one; none when the steps before
    /// it are ``missing``, for the state before it is not in the log.
    public var changes: [JSONChange]
    /// The steps missing right before this one, and why: a gap the recorder marked, or the
    /// front a log's retention trimmed (``RecordingGap/notKeptReason``).
    public var missing: LoggedGap? = nil

    public init(
        step: Int, offset: Double, origin: String, name: String, cause: Int?,
        action: JSONValue, outputs: [String], changes: [JSONChange]
    ) {
        self.step = step
        self.offset = offset
        self.origin = origin
        self.name = name
        self.cause = cause
        self.action = action
        self.outputs = outputs
        self.changes = changes
    }
}
