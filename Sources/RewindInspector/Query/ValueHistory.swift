import RewindJSON
import RewindLog

/// How the value at one path of a session's state changed, step by step.
public struct ValueHistory: Sendable, Equatable {
    /// One step that changed the value: its action, and the value before and after it.
    public struct Change: Sendable, Equatable {
        public var step: Int
        /// Where the action came from, like `login` or `photos/thumbnail[3]`.
        public var origin: String
        /// The action's name, like `didTapLogin`.
        public var action: String
        /// The value before the step; nil when absent.
        public var old: JSONValue?
        /// The value after the step; nil when absent.
        public var new: JSONValue?

        public init(step: Int, origin: String, action: String, old: JSONValue?, new: JSONValue?) {
            self.step = step
            self.origin = origin
            self.action = action
            self.old = old
            self.new = new
        }
    }

    /// The session the history is of.
    public var session: SessionSummary
    /// The path followed.
    public var path: JSONPath
    /// The value at step 0; nil when absent.
    public var initial: JSONValue?
    /// Every step that changed the value, in order.
    public var changes: [Change]

    public init(session: SessionSummary, path: JSONPath, initial: JSONValue?, changes: [Change]) {
        self.session = session
        self.path = path
        self.initial = initial
        self.changes = changes
    }
}
