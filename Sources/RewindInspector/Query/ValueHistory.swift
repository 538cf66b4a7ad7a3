import RewindJSON
import RewindLog

/// How the value at one path of a session's state changed, step by step.
///
/// A path of keys and indices follows a position; one with an id (`items[id=3].done`) follows
/// that element wherever it moves, absent before it appears and after it is removed; one with
/// `[*]` follows every place it names, each by its own path.
public struct ValueHistory: Sendable, Equatable {
    /// One step that changed a value: its action, where, and the value before and after it.
    public struct Change: Sendable, Equatable {
        public var step: Int
        /// Where the action came from, like `login` or `photos/thumbnail[3]`.
        public var origin: String
        /// The action's name, like `didTapLogin`.
        public var action: String
        /// The place that changed: the path followed, or for a path with `[*]` one place it
        /// names (elements of identified arrays by id).
        public var path: JSONPath
        /// The value before the step; nil when absent.
        public var old: JSONValue?
        /// The value after the step; nil when absent.
        public var new: JSONValue?

        public init(step: Int, origin: String, action: String, path: JSONPath, old: JSONValue?, new: JSONValue?) {
            self.step = step
            self.origin = origin
            self.action = action
            self.path = path
            self.old = old
            self.new = new
        }
    }

    /// The session the history is of.
    public var session: SessionSummary
    /// The path followed, as asked.
    public var path: JSONPath
    /// The places the path names at the first state, with their values: at most one for a path
    /// without `[*]`. That state is step 0's, or a trimmed session's first kept step's
    /// (``SessionSummary/firstKeptState``).
    public var initial: [JSONPathMatch]
    /// Every change, in order of steps, then of places.
    public var changes: [Change]

    public init(session: SessionSummary, path: JSONPath, initial: [JSONPathMatch], changes: [Change]) {
        self.session = session
        self.path = path
        self.initial = initial
        self.changes = changes
    }

    /// The value at step 0 of a path without `[*]`; nil when absent.
    public var initialValue: JSONValue? {
        path.hasWildcard ? nil : initial.first?.value
    }
}
