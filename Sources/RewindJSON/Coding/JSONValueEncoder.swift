import Foundation

/// Encodes `Encodable` values straight into a `JSONValue` tree, without going through text.
///
/// The tree is the one `JSONEncoder` with default strategies would write, read back with
/// `JSONValue(parsing:)`: `Date` as `.double(timeIntervalSinceReferenceDate)`, `Data` as a
/// base64 string, `URL` as its `absoluteString`, `Decimal` as a number, `nil` optionals
/// omitted from keyed containers, and dictionaries keyed by `Int` as objects with string keys.
/// Every integer type becomes `.int` (an unsigned value above `Int.max` throws), `Float` and
/// `Double` become `.double` (infinities and NaN throw `EncodingError.invalidValue`).
///
/// Unlike `JSONEncoder`, it lists the elements of a `Set`, and the pairs of a dictionary with
/// other keys, sorted by their canonical bytes rather than in hash order, which changes from
/// process to process (see `UnorderedCollection`).
///
/// One difference from `JSONEncoder`'s text: it writes an integral double such as `3.0` as
/// `3`, which parses back as `.int(3)`, whereas this encoder keeps `.double(3.0)`.
///
/// Unchecked `Sendable`: its only non-`Sendable` property is a copy of `userInfo`, whose values
/// are `Sendable`.
public struct JSONValueEncoder: @unchecked Sendable {
    /// Handed to every value being encoded, as `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] {
        didSet { encoderUserInfo = userInfo }
    }
    /// `userInfo` as `Encoder` wants it, converted once rather than at every encode.
    private var encoderUserInfo: [CodingUserInfoKey: Any] = [:]

    /// Whether a value that builds its own tree (`JSONTreeEncodable`, as `@RewindCodable`
    /// writes it) does so; when false, every value goes through `Encodable`, as a check that
    /// the two build the same tree.
    public var prefersTreeCoding = true

    /// An encoder with empty `userInfo`.
    public init() {
        userInfo = [:]
    }

    /// The tree for `value`.
    ///
    /// - Throws: `EncodingError.invalidValue` for non-finite floating-point numbers, integers
    ///   beyond `Int`, a NaN `Decimal`, a top-level value that encodes nothing, and whatever
    ///   the value's own `encode(to:)` throws.
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        try encode(value, memo: nil, treeType: treeType(of: T.self))
    }

    /// The tree for `value`, reusing what `memo` remembers of the previous value encoded with
    /// it: for a sequence of states where each differs from the last in a few places.
    public func encode<T: Encodable>(_ value: T, memo: JSONEncodingMemo) throws -> JSONValue {
        try encode(value, memo: memo, treeType: treeType(of: T.self))
    }

    /// The type as one that builds its own tree, if it is one and the encoder prefers that.
    func treeType<T>(of type: T.Type) -> (any JSONTreeEncodable.Type)? {
        prefersTreeCoding ? type as? any JSONTreeEncodable.Type : nil
    }

    /// The tree for `value`, built by `treeType` (which is `T`) if there is one.
    func encode<T: Encodable>(_ value: T, memo: JSONEncodingMemo?, treeType: (any JSONTreeEncodable.Type)?) throws -> JSONValue {
        memo?.beginValue()
        defer { memo?.endValue() }
        let root = TreeEncoder(parentNode: nil, key: nil, userInfo: encoderUserInfo, memo: memo, prefersTreeCoding: prefersTreeCoding)
        if let special = try root.boxSpecialCase(value, at: nil) { return special }
        if let treeType { return try treeType.encodeTree(of: value, at: root) }
        if UnorderedCollectionOrder.mayBe(T.self), let unordered = value as? any UnorderedCollection {
            return try unordered.encodeSorted(in: root, at: nil)
        }
        try value.encode(to: root)
        guard let tree = root.takeValue() else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        return tree
    }
}
