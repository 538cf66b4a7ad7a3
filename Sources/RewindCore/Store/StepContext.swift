/// Where an action sits in its session.
public struct StepContext: Hashable, Sendable {
    /// The step this action produces: 1 for the first action of a session.
    public let step: Int
    /// The step whose effect sent this action, or nil for an action sent from outside.
    public let cause: Int?

    @inlinable
    public init(step: Int, cause: Int?) {
        self.step = step
        self.cause = cause
    }
}
