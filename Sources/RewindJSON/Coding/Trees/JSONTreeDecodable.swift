/// A value that reads itself from a `JSONValue` tree, without going through `Decoder`.
///
/// `JSONValueDecoder` tries ``init(tree:_:)`` first and, if it throws, decodes with
/// `init(from:)`, whose error says exactly what and where. So a conformance may refuse more
/// than `init(from:)` does (an integer written as `3.0`, say), but must never accept a tree
/// that `init(from:)` refuses, nor read one differently.
public protocol JSONTreeDecodable: Decodable {
    /// The value `init(from:)` would read from `tree`, or an error.
    init(tree: JSONValue, _ decoder: JSONTreeDecoder) throws
}

// Called on the type a cast found, so that the value is never boxed in an existential (see
// JSONTreeEncodable.swift).
extension JSONTreeDecodable {
    /// A value of this type, which is `T`, read from `tree`.
    static func decodeTree<T>(_ tree: JSONValue, as type: T.Type, _ decoder: JSONTreeDecoder) throws -> T {
        precondition(T.self == Self.self)
        return unsafeBitCast(try Self(tree: tree, decoder), to: T.self)
    }
}
