/// Why a session could not be shrunk: it does not show the goal, or it cannot be replayed.
public struct ShrinkError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Hashable {
        /// The whole session, replayed, does not show what was asked for.
        case notShown
        /// The current reducer refuses one of its steps (it no longer decodes).
        case cannotReplay

        /// Whether `error` is a ``ShrinkError`` of this kind: `catch ShrinkError.Kind.notShown`.
        public static func ~= (kind: Kind, error: any Error) -> Bool {
            (error as? ShrinkError)?.kind == kind
        }
    }

    public let kind: Kind
    /// The session, as `#N (name)`.
    public let session: String
    /// What happened, in one line.
    public let description: String
    public let underlying: ReplayError?

    public init(_ kind: Kind, session: String, _ description: String, underlying: ReplayError? = nil) {
        self.kind = kind
        self.session = session
        self.description = description
        self.underlying = underlying
    }
}
