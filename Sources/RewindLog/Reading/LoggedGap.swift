/// Steps missing from a session, and why.
public struct LoggedGap: Sendable, Equatable {
    public var steps: ClosedRange<Int>
    public var reason: String
}
