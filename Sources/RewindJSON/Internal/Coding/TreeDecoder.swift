import Foundation

/// The `Decoder` behind `JSONValueDecoder`: one per value that decodes itself, reading its
/// part of the tree directly. A decoder is also its own single-value container.
final class TreeDecoder: Decoder, CodingPathTracking {
    let value: JSONValue
    let parentNode: CodingPathNode?
    let key: (any CodingKey)?
    let userInfo: [CodingUserInfoKey: Any]
    /// Set once, by the decoding that owns this decoder, on its thread: no access can overlap,
    /// so it skips the runtime's exclusivity checks.
    @exclusivity(unchecked) var cachedNode: CodingPathNode?

    init(value: JSONValue, parentNode: CodingPathNode?, key: (any CodingKey)?, userInfo: [CodingUserInfoKey: Any]) {
        self.value = value
        self.parentNode = parentNode
        self.key = key
        self.userInfo = userInfo
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw mismatch([String: Any].self, value, at: nil, container: "keyed decoding container")
        }
        return KeyedDecodingContainer(TreeKeyedDecodingContainer<Key>(decoder: self, object: object))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw mismatch([Any].self, value, at: nil, container: "unkeyed decoding container")
        }
        return TreeUnkeyedDecodingContainer(decoder: self, elements: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }

    /// A decoder for `value` at `key` below this decoder.
    func child(for value: JSONValue, at key: any CodingKey) -> TreeDecoder {
        TreeDecoder(value: value, parentNode: pathNode, key: key, userInfo: userInfo)
    }

    /// `value` decoded as `T` at `key` below this decoder (at this decoder's own path if `nil`).
    func unbox<T: Decodable>(_ value: JSONValue, as type: T.Type, at key: (any CodingKey)?) throws -> T {
        if let special = try unboxSpecialCase(value, as: type, at: key) { return special }
        let decoder =
            key.map { child(for: value, at: $0) }
            ?? TreeDecoder(value: value, parentNode: parentNode, key: self.key, userInfo: userInfo)
        return try T(from: decoder)
    }

    /// `value` decoded as one of the types `JSONDecoder` treats specially, or as one of the
    /// commonest primitives, without a child decoder; `nil` for every other type.
    ///
    /// Each branch has checked that `T` is the type it decodes, so the result is reinterpreted
    /// as `T` rather than cast: a dynamic cast cost more than decoding the value.
    func unboxSpecialCase<T: Decodable>(_ value: JSONValue, as type: T.Type, at key: (any CodingKey)?) throws -> T? {
        if T.self == String.self { return unsafeBitCast(try unbox(value, as: String.self, at: key), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try unbox(value, as: Int.self, at: key), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try unbox(value, as: Double.self, at: key), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try unbox(value, as: Bool.self, at: key), to: T.self) }
        if T.self == Date.self {
            return unsafeBitCast(Date(timeIntervalSinceReferenceDate: try unbox(value, as: Double.self, at: key)), to: T.self)
        }
        if T.self == Data.self {
            guard let data = Data(base64Encoded: try unbox(value, as: String.self, at: key)) else {
                throw corrupted(at: key, "Encountered Data is not valid Base64.")
            }
            return unsafeBitCast(data, to: T.self)
        }
        if T.self == URL.self {
            guard let url = URL(string: try unbox(value, as: String.self, at: key)) else {
                throw corrupted(at: key, "Invalid URL string.")
            }
            return unsafeBitCast(url, to: T.self)
        }
        if T.self == Decimal.self { return unsafeBitCast(try unboxDecimal(value, at: key), to: T.self) }
        return nil
    }
}

extension TreeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool {
        if case .null = value { true } else { false }
    }

    func decode(_ type: Bool.Type) throws -> Bool { try unbox(value, as: type, at: nil) }
    func decode(_ type: String.Type) throws -> String { try unbox(value, as: type, at: nil) }
    func decode(_ type: Double.Type) throws -> Double { try unbox(value, as: type, at: nil) }
    func decode(_ type: Float.Type) throws -> Float { try unbox(value, as: type, at: nil) }
    func decode(_ type: Int.Type) throws -> Int { try unbox(value, as: type, at: nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try unbox(value, as: type, at: nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try unbox(value, as: type, at: nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try unbox(value, as: type, at: nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try unbox(value, as: type, at: nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try unbox(value, as: type, at: nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try unbox(value, as: type, at: nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try unbox(value, as: type, at: nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try unbox(value, as: type, at: nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try unbox(value, as: type, at: nil) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try unbox(value, as: type, at: nil) }
}
