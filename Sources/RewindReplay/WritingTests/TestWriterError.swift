/// Why ``TestWriter`` cannot write a session's test.
public struct TestWriterError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// `--from` / `--to` name steps the session does not have.
        case invalidWindow
        /// A recorded state or action does not decode as the flow's types.
        case cannotDecode
        /// The reducer's type has no name a test can write, and no expression was given.
        case noReducerExpression
    }

    public let kind: Kind
    public let session: Int
    public let message: String

    public init(_ kind: Kind, session: Int, _ message: String) {
        self.kind = kind
        self.session = session
        self.message = message
    }

    public var description: String { message }
}

/// Matches an error by its kind: `catch TestWriterError.Kind.invalidWindow`.
public func ~= (kind: TestWriterError.Kind, error: any Error) -> Bool {
    (error as? TestWriterError)?.kind == kind
}
