/// Decodes `Decodable` values straight from a `JSONValue` tree, without going through text.
///
/// It follows `JSONDecoder`'s default conventions: `Date` from a number of seconds since the
/// reference date, `Data` from base64, `URL` from a string, `Decimal` from a number. Any
/// integer type decodes from an `.int` in its range or a `.double` with an exact integral value;
/// `Double` and `Float` decode from `.int` too. Failures are the standard `DecodingError`s,
/// with the coding path of the offending value.
///
/// Unchecked `Sendable`: its only non-`Sendable` property is a copy of `userInfo`, whose values
/// are `Sendable`.
public struct JSONValueDecoder: @unchecked Sendable {
    /// Handed to every value being decoded, as `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] {
        didSet { decoderUserInfo = userInfo }
    }
    /// `userInfo` as `Decoder` wants it, converted once rather than at every decode.
    private var decoderUserInfo: [CodingUserInfoKey: Any] = [:]

    /// Whether a value that reads its own tree (`JSONTreeDecodable`, as `@RewindCodable`
    /// writes it) does so; when false, every value goes through `Decodable`, as a check that
    /// the two read the same value.
    public var prefersTreeCoding = true

    /// A decoder with empty `userInfo`.
    public init() {
        userInfo = [:]
    }

    /// A `T` read from `value`.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try decode(type, from: value, treeType: prefersTreeCoding ? type as? any JSONTreeDecodable.Type : nil)
    }

    /// A `T` read from `value`, by `treeType` (which is `T`) if there is one.
    func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, treeType: (any JSONTreeDecodable.Type)?) throws -> T {
        // A tree it refuses is decoded again through `Decodable`, whose error says where.
        if let treeType, let decoded = try? treeType.decodeTree(value, as: type, JSONTreeDecoder(userInfo: decoderUserInfo)) {
            return decoded
        }
        let root = TreeDecoder(value: value, parentNode: nil, key: nil, userInfo: decoderUserInfo)
        if let special = try root.unboxSpecialCase(value, as: type, at: nil) { return special }
        return try T(from: root)
    }
}
