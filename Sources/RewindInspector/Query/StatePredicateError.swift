/// Why a text is not a ``StatePredicate``, with the column where reading stopped.
///
/// Its description reads like
/// `invalid predicate at column 12: expected a value after '=='`.
public struct StatePredicateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text that failed to parse.
    public let text: String
    /// The one-based column, counted in Unicode scalars, where the problem is; one past the
    /// end when the text stops too early.
    public let column: Int
    /// What was wrong, in a few lowercase words.
    public let reason: String

    /// An error about `text` at `column`.
    public init(text: String, column: Int, reason: String) {
        self.text = text
        self.column = column
        self.reason = reason
    }

    public var description: String {
        "invalid predicate at column \(column): \(reason)"
    }
}
