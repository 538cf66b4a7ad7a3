/// What a ``JSONTreeDecodable`` value reads its tree with: objects and their members, and
/// `Codable` for any member whose type reads no tree itself.
///
/// It keeps no coding path: a tree that does not fit throws a ``JSONTreeMismatch``, and
/// `JSONValueDecoder` then decodes it again with `init(from:)` for the error that says where.
public struct JSONTreeDecoder {
    /// The `userInfo` the decoding was given.
    public let userInfo: [CodingUserInfoKey: Any]

    /// A decoder handing `userInfo` to the values it reads, for calling `init(tree:_:)` directly.
    public init(userInfo: [CodingUserInfoKey: Any] = [:]) {
        self.userInfo = userInfo
    }

    /// The members of `tree`, which must be an object.
    public func object<T>(_ tree: JSONValue, of type: T.Type) throws -> JSONTreeObjectDecoder {
        guard case .object(let object) = tree else { throw JSONTreeMismatch(type, "not an object") }
        return JSONTreeObjectDecoder(object: object, decoder: self)
    }

    /// The one member of `tree`, an enum case, and its associated values: `Decodable` as Swift
    /// synthesizes it wants exactly one.
    public func caseObject<T>(_ tree: JSONValue, of type: T.Type) throws -> (key: String, value: JSONValue) {
        guard case .object(let object) = tree, object.keys.count == 1 else { throw JSONTreeMismatch(type, "not an object of one key") }
        return (object.keys[0], object.values[0])
    }

    /// A mismatch for `type`: a case name it does not have.
    public func unknownCase<T>(_ key: String, of type: T.Type) -> JSONTreeMismatch {
        JSONTreeMismatch(type, "no case \(key)")
    }

    /// `tree` as the whole of a value: a raw-value enum's raw value.
    public func decode<T: Decodable>(_ tree: JSONValue) throws -> T {
        try Self.decode(T.self, tree, userInfo: userInfo)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ tree: JSONValue, userInfo: [CodingUserInfoKey: Any]) throws -> T {
        if let special = unboxSpecial(tree, as: type) { return special }
        if let treeType = type as? any JSONTreeDecodable.Type {
            // Only a generic member reaches here: a concrete one calls its own overload.
            return try treeType.decodeTree(tree, as: type, JSONTreeDecoder(userInfo: userInfo))
        }
        let root = TreeDecoder(value: tree, parentNode: nil, key: nil, userInfo: userInfo)
        if let special = try root.unboxSpecialCase(tree, as: type, at: nil) { return special }
        return try T(from: root)
    }

    /// The commonest scalars, read without a decoder; `nil` for other types.
    private static func unboxSpecial<T>(_ tree: JSONValue, as type: T.Type) -> T? {
        if T.self == String.self, case .string(let string) = tree { return unsafeBitCast(string, to: T.self) }
        if T.self == Int.self, case .int(let int) = tree { return unsafeBitCast(int, to: T.self) }
        if T.self == Bool.self, case .bool(let bool) = tree { return unsafeBitCast(bool, to: T.self) }
        return nil
    }
}

/// The members of one object being read by a ``JSONTreeDecodable`` value.
///
/// Each `decode` follows `Decodable`'s keyed container: a non-optional member must be there
/// and not `null`; an optional one may be missing or `null` (`decodeIfPresent`). The type to
/// read is the one the result is assigned to.
public struct JSONTreeObjectDecoder {
    let object: JSONObject
    let decoder: JSONTreeDecoder

    private func value(forKey key: String) throws -> JSONValue {
        guard let value = object[key] else { throw JSONTreeMismatch(JSONObject.self, "no member \(key)") }
        return value
    }

    private func presentValue(forKey key: String) -> JSONValue? {
        switch object[key] {
        case .none, .null?: nil
        case let value?: value
        }
    }

    // Each member reads `decode(Type.self, forKey:)` where the macro knows its type; there the
    // overloads rank by the type's constraints. Where the type is inferred from an initial
    // value, `decode(forKey:)` finds it from what the result is assigned to; only the scalars
    // rank there, so the generic one looks at the type at run time.

    /// A string member.
    public func decode(_ type: String.Type, forKey key: String) throws -> String {
        guard case .string(let string) = try value(forKey: key) else { throw JSONTreeMismatch(type, "\(key) is not a string") }
        return string
    }

    /// A bool member.
    public func decode(_ type: Bool.Type, forKey key: String) throws -> Bool {
        guard case .bool(let bool) = try value(forKey: key) else { throw JSONTreeMismatch(type, "\(key) is not a bool") }
        return bool
    }

    /// An integer member, written as one.
    public func decode(_ type: Int.Type, forKey key: String) throws -> Int {
        guard case .int(let int) = try value(forKey: key) else { throw JSONTreeMismatch(type, "\(key) is not an integer") }
        return int
    }

    /// A number member.
    public func decode(_ type: Double.Type, forKey key: String) throws -> Double {
        switch try value(forKey: key) {
        case .double(let double): return double
        case .int(let int): return Double(int)
        default: throw JSONTreeMismatch(type, "\(key) is not a number")
        }
    }

    /// A member that reads its own tree.
    public func decode<T: JSONTreeDecodable>(_ type: T.Type, forKey key: String) throws -> T {
        try T(tree: try value(forKey: key), decoder)
    }

    /// An array of values that read their own trees.
    public func decode<T: JSONTreeDecodable>(_ type: [T].Type, forKey key: String) throws -> [T] {
        guard case .array(let elements) = try value(forKey: key) else { throw JSONTreeMismatch(type, "\(key) is not an array") }
        var result: [T] = []
        result.reserveCapacity(elements.count)
        for element in elements { result.append(try T(tree: element, decoder)) }
        return result
    }

    /// Any other `Decodable` value, as `JSONValueDecoder` decodes it.
    public func decode<T: Decodable>(_ type: T.Type, forKey key: String) throws -> T {
        try JSONTreeDecoder.decode(type, try value(forKey: key), userInfo: decoder.userInfo)
    }

    /// An optional string member: `nil` when missing or `null`.
    public func decode(_ type: String?.Type, forKey key: String) throws -> String? {
        try presentValue(forKey: key).map { _ in try decode(String.self, forKey: key) }
    }

    /// An optional bool member: `nil` when missing or `null`.
    public func decode(_ type: Bool?.Type, forKey key: String) throws -> Bool? {
        try presentValue(forKey: key).map { _ in try decode(Bool.self, forKey: key) }
    }

    /// An optional integer member: `nil` when missing or `null`.
    public func decode(_ type: Int?.Type, forKey key: String) throws -> Int? {
        try presentValue(forKey: key).map { _ in try decode(Int.self, forKey: key) }
    }

    /// An optional number member: `nil` when missing or `null`.
    public func decode(_ type: Double?.Type, forKey key: String) throws -> Double? {
        try presentValue(forKey: key).map { _ in try decode(Double.self, forKey: key) }
    }

    /// An optional member that reads its own tree: `nil` when missing or `null`.
    public func decode<T: JSONTreeDecodable>(_ type: T?.Type, forKey key: String) throws -> T? {
        try presentValue(forKey: key).map { try T(tree: $0, decoder) }
    }

    /// Any other optional member: `nil` when missing or `null`.
    public func decode<T: Decodable>(_ type: T?.Type, forKey key: String) throws -> T? {
        try presentValue(forKey: key).map { try JSONTreeDecoder.decode(T.self, $0, userInfo: decoder.userInfo) }
    }

    /// A member of an inferred scalar type, as `decode(_:forKey:)` reads it.
    public func decode(forKey key: String) throws -> String { try decode(String.self, forKey: key) }
    public func decode(forKey key: String) throws -> Bool { try decode(Bool.self, forKey: key) }
    public func decode(forKey key: String) throws -> Int { try decode(Int.self, forKey: key) }
    public func decode(forKey key: String) throws -> Double { try decode(Double.self, forKey: key) }
    public func decode(forKey key: String) throws -> String? { try decode(String?.self, forKey: key) }
    public func decode(forKey key: String) throws -> Bool? { try decode(Bool?.self, forKey: key) }
    public func decode(forKey key: String) throws -> Int? { try decode(Int?.self, forKey: key) }
    public func decode(forKey key: String) throws -> Double? { try decode(Double?.self, forKey: key) }

    /// A member of a type only the result says: an optional one may be missing or `null`.
    public func decode<T: Decodable>(forKey key: String) throws -> T {
        if let optional = T.self as? any TreeDecodableOptional.Type {
            return try optional.decodeIfPresent(presentValue(forKey: key), as: T.self, decoder)
        }
        return try JSONTreeDecoder.decode(T.self, try value(forKey: key), userInfo: decoder.userInfo)
    }
}

/// `Optional`, seen through its `Wrapped` type at run time.
protocol TreeDecodableOptional {
    /// `value` read as this optional type, which is `T`: `nil` when it is missing or `null`.
    static func decodeIfPresent<T>(_ value: JSONValue?, as type: T.Type, _ decoder: JSONTreeDecoder) throws -> T
}

extension Optional: TreeDecodableOptional where Wrapped: Decodable {
    static func decodeIfPresent<T>(_ value: JSONValue?, as type: T.Type, _ decoder: JSONTreeDecoder) throws -> T {
        precondition(T.self == Self.self)
        let decoded = try value.map { try JSONTreeDecoder.decode(Wrapped.self, $0, userInfo: decoder.userInfo) }
        // Returned as `T` without an existential box (see `JSONTreeDecodable.decodeTree`).
        return unsafeBitCast(decoded, to: T.self)
    }
}
