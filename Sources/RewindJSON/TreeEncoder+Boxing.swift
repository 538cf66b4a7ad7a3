import Foundation

extension TreeEncoder {
    /// The tree for `value` encoded at `key` below this encoder (at this encoder's own path if `nil`).
    func box<T: Encodable>(_ value: T, at key: (any CodingKey)?) throws -> JSONValue {
        if let special = try boxSpecialCase(value, at: key) { return special }
        if let memo, let array = value as? any MemoizableArray {
            return try array.encodeMemoized(in: self, at: key, memo: memo)
        }
        let child = key.map { TreeEncoder(parentNode: pathNode, key: $0, userInfo: userInfo, memo: memo) }
            ?? TreeEncoder(parentNode: parentNode, key: self.key, userInfo: userInfo, memo: memo)
        try value.encode(to: child)
        // JSONEncoder writes a value that encoded nothing as an empty object.
        return child.takeValue() ?? .object(JSONObject())
    }

    /// The tree for the types `JSONEncoder` treats specially, and for the commonest primitives,
    /// which need no child encoder; `nil` for everything else.
    ///
    /// Comparing metatypes first is cheap, and makes the casts that follow certain to succeed.
    func boxSpecialCase<T: Encodable>(_ value: T, at key: (any CodingKey)?) throws -> JSONValue? {
        if T.self == String.self, let string = value as? String { return .string(string) }
        if T.self == Int.self, let int = value as? Int { return .int(int) }
        if T.self == Double.self, let double = value as? Double { return try box(double, at: key) }
        if T.self == Bool.self, let bool = value as? Bool { return .bool(bool) }
        if T.self == Date.self, let date = value as? Date { return try box(date.timeIntervalSinceReferenceDate, at: key) }
        if T.self == Data.self, let data = value as? Data { return .string(data.base64EncodedString()) }
        if T.self == URL.self, let url = value as? URL { return .string(url.absoluteString) }
        if T.self == Decimal.self, let decimal = value as? Decimal { return try box(decimal, at: key) }
        return nil
    }

    func box(_ value: Double, at key: (any CodingKey)?) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: codingPath(appending: key),
                debugDescription: "Unable to encode Double.\(value) directly in JSON."))
        }
        return .double(value)
    }

    func box(_ value: Float, at key: (any CodingKey)?) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: codingPath(appending: key),
                debugDescription: "Unable to encode Float.\(value) directly in JSON."))
        }
        // JSONEncoder writes a Float's own shortest text, so 0.1 reads back as the Double 0.1
        // rather than as the widened 0.10000000149011612.
        return .double(Double(value.description) ?? Double(value))
    }

    func box<T: BinaryInteger & Encodable>(_ value: T, at key: (any CodingKey)?) throws -> JSONValue {
        guard let int = Int(exactly: value) else {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: codingPath(appending: key),
                debugDescription: "Unable to encode \(T.self) \(value) as a JSON integer: it exceeds Int.max."))
        }
        return .int(int)
    }

    func box(_ value: Decimal, at key: (any CodingKey)?) throws -> JSONValue {
        // JSONEncoder writes a Decimal's description as the number's text; reading that text
        // with the parser's rules gives exactly the value parsing its output would.
        guard !value.isNaN, let number = JSONParser.number(from: value.description) else {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: codingPath(appending: key),
                debugDescription: "Unable to encode Decimal \(value) directly in JSON."))
        }
        return number
    }
}
