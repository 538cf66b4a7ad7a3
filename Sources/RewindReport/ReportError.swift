/// Why a report was not written: what was asked, and the bound it passed.
///
/// Matched by kind, like `LogError`: `catch let error as ReportError where error.kind == .tooLarge`.
public struct ReportError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        public let description: String

        /// More steps or bytes than one page holds and stays quick.
        public static let tooLarge = Kind(description: "too large")
        /// A step range with no single session to apply to.
        public static let ambiguousRange = Kind(description: "ambiguous range")
    }

    public let kind: Kind
    /// The log the report was asked of.
    public let path: String
    /// The steps the report would hold, for `tooLarge`.
    public let steps: Int?
    /// What the report says in one line, with how to narrow it.
    public let message: String

    public init(_ kind: Kind, path: String, steps: Int? = nil, _ message: String) {
        self.kind = kind
        self.path = path
        self.steps = steps
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
