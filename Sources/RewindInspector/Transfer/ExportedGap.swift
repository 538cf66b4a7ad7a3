/// A gap line: steps the recorder could not write, and why.
public struct ExportedGap: Sendable, Equatable {
    public var session: Int
    public var steps: ClosedRange<Int>
    public var reason: String
}
