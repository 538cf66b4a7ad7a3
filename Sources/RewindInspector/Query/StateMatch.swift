import RewindLog

/// A step whose state satisfied a ``StatePredicate``.
public struct StateMatch: Sendable, Equatable {
    /// The session the step belongs to.
    public var session: SessionSummary
    public var step: Int
    /// Where the step's action came from; nil at step 0, which has no action.
    public var origin: String?
    /// The step's action; nil at step 0.
    public var action: String?

    public init(session: SessionSummary, step: Int, origin: String?, action: String?) {
        self.session = session
        self.step = step
        self.origin = origin
        self.action = action
    }
}
