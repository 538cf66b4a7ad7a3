import Foundation

extension TreeEncoder {
    /// The tree for `value` encoded at `key` below this encoder (at this encoder's own path if `nil`).
    func box<T: Encodable>(_ value: T, at key: (any CodingKey)?) throws -> JSONValue {
        if let special = try boxSpecialCase(value, at: key) { return special }
        if let memo, MemoizableArrays.mayBe(T.self), let array = value as? any MemoizableArray {
            return try array.encodeMemoized(in: self, at: key, memo: memo)
        }
        if UnorderedCollectionOrder.mayBe(T.self), let unordered = value as? any UnorderedCollection {
            return try unordered.encodeSorted(in: self, at: key)
        }
        let child = child(at: key)
        try value.encode(to: child)
        // JSONEncoder writes a value that encoded nothing as an empty object.
        return child.takeValue() ?? .object(JSONObject())
    }

    /// A new encoder for a value at `key` below this one (at this encoder's own path if `nil`).
    func child(at key: (any CodingKey)?) -> TreeEncoder {
        key.map { TreeEncoder(parentNode: pathNode, key: $0, userInfo: userInfo, memo: memo, prefersTreeCoding: prefersTreeCoding) }
            ?? TreeEncoder(parentNode: parentNode, key: self.key, userInfo: userInfo, memo: memo, prefersTreeCoding: prefersTreeCoding)
    }

    /// The tree for the types `JSONEncoder` treats specially, and for the commonest primitives,
    /// which need no child encoder; `nil` for everything else.
    ///
    /// Each branch has compared metatypes first, so the value is reinterpreted as the type it
    /// is rather than cast: a dynamic cast cost more than encoding the value.
    func boxSpecialCase<T: Encodable>(_ value: T, at key: (any CodingKey)?) throws -> JSONValue? {
        if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return .int(unsafeBitCast(value, to: Int.self)) }
        if T.self == Double.self { return try box(unsafeBitCast(value, to: Double.self), at: key) }
        if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
        if T.self == Date.self { return try box(unsafeBitCast(value, to: Date.self).timeIntervalSinceReferenceDate, at: key) }
        if T.self == Data.self { return .string(unsafeBitCast(value, to: Data.self).base64EncodedString()) }
        if T.self == URL.self { return .string(unsafeBitCast(value, to: URL.self).absoluteString) }
        if T.self == Decimal.self { return try box(unsafeBitCast(value, to: Decimal.self), at: key) }
        return nil
    }

    func box(_ value: Double, at key: (any CodingKey)?) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: codingPath(appending: key),
                    debugDescription: "Unable to encode Double.\(value) directly in JSON."))
        }
        return .double(value)
    }

    func box(_ value: Float, at key: (any CodingKey)?) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: codingPath(appending: key),
                    debugDescription: "Unable to encode Float.\(value) directly in JSON."))
        }
        // JSONEncoder writes a Float's own shortest text, so 0.1 reads back as the Double 0.1
        // rather than as the widened 0.10000000149011612.
        return .double(Double(value.description) ?? Double(value))
    }

    func box<T: BinaryInteger & Encodable>(_ value: T, at key: (any CodingKey)?) throws -> JSONValue {
        guard let int = Int(exactly: value) else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: codingPath(appending: key),
                    debugDescription: "Unable to encode \(T.self) \(value) as a JSON integer: it exceeds Int.max."))
        }
        return .int(int)
    }

    func box(_ value: Decimal, at key: (any CodingKey)?) throws -> JSONValue {
        // JSONEncoder writes a Decimal's description as the number's text; reading that text
        // with the parser's rules gives exactly the value parsing its output would.
        guard !value.isNaN, let number = JSONParser.number(from: value.description) else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: codingPath(appending: key),
                    debugDescription: "Unable to encode Decimal \(value) directly in JSON."))
        }
        return number
    }
}
