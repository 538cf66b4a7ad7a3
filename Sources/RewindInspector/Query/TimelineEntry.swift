import RewindJSON

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
    /// The leaf-level changes from the previous state to this one.
    public var changes: [JSONChange]

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
