import RewindJSON
import RewindLog

/// A position in one recorded session that moves step by step, like a debugger through time.
///
/// The cursor is always within `0...lastStep` (step 0 is the initial state): ``next()`` at the
/// last step and ``back()`` at step 0 return false and stay put, and ``jump(to:)`` refuses a
/// step outside the session. Everything it reads (the action, the state, a diff) comes from
/// the log when asked; reading never changes the log.
///
/// ``nextStep(matching:)`` searches forward only, from the step after the current one to the
/// last, and does not wrap around to step 0: in a script, a search that silently came back
/// to an earlier step would be hard to tell from one that found a later step. To search from
/// the start, go to ``first()`` and search again.
public struct TimeTravelCursor: Sendable {
    /// The log the cursor reads.
    public let inspector: LogInspector
    /// The session the cursor moves through, as last read: it grows while followed
    /// (``grow(to:)``).
    public private(set) var session: SessionSummary
    /// The current step, 0 (the initial state) through ``lastStep``.
    public private(set) var step: Int

    /// How many events a search reads from the log at a time.
    static let searchBatch = 512

    /// A cursor on `step` of `session`; throws a ``LogError/Kind/noSuchStep`` error naming the log, the
    /// session and the step when the step is out of range.
    public init(inspector: LogInspector, session: SessionSummary, step: Int = 0) throws(LogError) {
        try inspector.reader.checkStep(step, in: session)
        self.inspector = inspector
        self.session = session
        self.step = step
    }

    /// The session's last step.
    public var lastStep: Int { session.lastStep }

    /// Every step the cursor can stand on.
    public var steps: ClosedRange<Int> { 0...session.lastStep }

    /// Takes `session` as the log now holds it, with the steps recorded since (`step
    /// --follow`); the cursor stays on its step. A summary of another session is ignored.
    public mutating func grow(to session: SessionSummary) {
        guard session.number == self.session.number, session.lastStep >= self.session.lastStep else { return }
        self.session = session
    }

    // MARK: Moving

    /// Moves to the next step; false, staying put, at the last step.
    @discardableResult
    public mutating func next() -> Bool {
        guard step < lastStep else { return false }
        step += 1
        return true
    }

    /// Moves to the previous step; false, staying put, at step 0.
    @discardableResult
    public mutating func back() -> Bool {
        guard step > 0 else { return false }
        step -= 1
        return true
    }

    /// Moves to `target`; throws a ``LogError/Kind/noSuchStep`` error, staying put, when it is out of range.
    public mutating func jump(to target: Int) throws(LogError) {
        try inspector.reader.checkStep(target, in: session)
        step = target
    }

    /// Moves to step 0, the initial state.
    public mutating func first() {
        step = 0
    }

    /// Moves to the last step.
    public mutating func last() {
        step = lastStep
    }

    /// Moves to the next step whose action matches `glob`; false, staying put, when none does.
    @discardableResult
    public mutating func find(_ glob: ActionGlob) throws(LogError) -> Bool {
        guard let found = try nextStep(matching: glob) else { return false }
        step = found
        return true
    }

    // MARK: Reading

    /// The current step's action and what it changed; nil at step 0, which has no action.
    public func entry() throws(LogError) -> TimelineEntry? {
        guard step > 0 else { return nil }
        guard let entry = try inspector.timeline(of: session, steps: step...step).first else {
            throw LogError.stepNotRecorded(step, of: session, in: inspector.path)
        }
        return entry
    }

    /// The whole state after the current step.
    public func state() throws(LogError) -> JSONValue {
        try inspector.reader.state(of: session, at: step)
    }

    /// The value at `path` in the current state; nil when the state has nothing there.
    public func value(at path: JSONPath) throws(LogError) -> JSONValue? {
        try state()[path]
    }

    /// The field-level changes from the state at step `other` to the current state; throws a
    /// ``LogError/Kind/noSuchStep`` error when `other` is out of range.
    public func diff(from other: Int) throws(LogError) -> [JSONChange] {
        try inspector.reader.checkStep(other, in: session)
        return try inspector.diff(of: session, from: other, to: step)
    }

    /// The first step after the current one whose action name matches `glob`, or nil when no
    /// later step matches. Does not wrap around (see the type's documentation).
    public func nextStep(matching glob: ActionGlob) throws(LogError) -> Int? {
        var start = step + 1
        while start <= lastStep {
            let end = min(lastStep, start + Self.searchBatch - 1)
            let events = try inspector.reader.events(of: session, steps: start...end)
            if let match = events.first(where: { glob.matches($0.actionName) }) {
                return match.step
            }
            start = end + 1
        }
        return nil
    }
}
