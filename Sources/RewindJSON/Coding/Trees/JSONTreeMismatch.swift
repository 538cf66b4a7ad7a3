/// Why a ``JSONTreeDecodable`` value refused a tree: a value of another kind, or a key that
/// is missing or not one the type knows.
///
/// `JSONValueDecoder` never shows it: it decodes the tree again with `init(from:)`, whose
/// `DecodingError` says where.
public struct JSONTreeMismatch: Error, CustomStringConvertible {
    /// The type being decoded.
    public let type: Any.Type
    /// What was wrong with the tree.
    public let reason: String

    public init(_ type: Any.Type, _ reason: String) {
        self.type = type
        self.reason = reason
    }

    public var description: String { "cannot read \(type) from this tree: \(reason)" }
}
