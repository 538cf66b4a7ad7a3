/// Why a string is not a `JSONPath`.
///
/// Its description reads like
/// `invalid path "photos[x]": expected an index, a quoted key, id=VALUE or * after '['`.
public struct JSONPathError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text that failed to parse.
    public let text: String
    /// The zero-based UTF-8 offset in `text` where parsing stopped.
    public let offset: Int
    /// What was wrong, in a few lowercase words.
    public let reason: String

    /// An error about `text` at `offset`.
    public init(text: String, offset: Int, reason: String) {
        self.text = text
        self.offset = offset
        self.reason = reason
    }

    public var description: String {
        "invalid path \(JSONParser.quoted(text)): \(reason)"
    }
}
