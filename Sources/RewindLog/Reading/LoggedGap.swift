/// Steps missing from a session, and why.
public struct LoggedGap: Sendable, Equatable {
    public var steps: ClosedRange<Int>
    public var reason: String
    /// How the gap's stored row compared with its checksum.
    public var rowCheck: RowCheck = .verified

    public init(steps: ClosedRange<Int>, reason: String, rowCheck: RowCheck = .verified) {
        self.steps = steps
        self.reason = reason
        self.rowCheck = rowCheck
    }
}
