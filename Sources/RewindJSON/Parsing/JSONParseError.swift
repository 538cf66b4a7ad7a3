/// Why some bytes are not a JSON document, and where the parser gave up.
///
/// Its description reads like `invalid JSON at byte 17: expected ':' after object key`.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The zero-based offset of the offending byte in the input (its length at end of input).
    public let offset: Int
    /// What was wrong, in a few lowercase words.
    public let reason: String

    /// An error at `offset` of the input.
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String {
        "invalid JSON at byte \(offset): \(reason)"
    }
}
