/// Steps the recorder could not write, marked in the log so that no loss is silent.
public struct RecordingGap: Sendable, Equatable {
    /// The first and last step that are missing.
    public var steps: ClosedRange<Int>
    /// Why they are missing: the recorder's queue was full, or the sink's error.
    public var reason: String

    public init(steps: ClosedRange<Int>, reason: String) {
        self.steps = steps
        self.reason = reason
    }

    /// The reason of the steps a log's retention removed from the front of a session (steps 1
    /// to the one before its first kept block): one gap, always from step 1, which readers take
    /// as "steps 1-N not kept".
    public static let notKeptReason = "not kept"
}
