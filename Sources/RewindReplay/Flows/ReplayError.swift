/// Why a recorded value cannot be replayed: what failed, in one line, and the error underneath.
public struct ReplayError: Error, CustomStringConvertible, Sendable {
    /// What failed.
    public enum Kind: Sendable, Hashable {
        /// A recorded state or action does not decode into the current types.
        case cannotDecode
        /// A replayed state does not encode.
        case cannotEncode
        /// A schema migration threw.
        case migrationFailed
        /// The stepper was asked to step before it was given a state.
        case noState
    }

    public let kind: Kind
    /// One line, such as `TodoAction has no case 'setFilter' (removed or renamed?)`.
    public let description: String
    /// The error that caused it: a `DecodingError`, `EncodingError`, or a migration's own.
    public let underlying: (any Error)?

    public init(_ kind: Kind, _ description: String, underlying: (any Error)? = nil) {
        self.kind = kind
        self.description = description
        self.underlying = underlying
    }
}
