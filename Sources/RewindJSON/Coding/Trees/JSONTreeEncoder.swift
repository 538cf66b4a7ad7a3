/// What a ``JSONTreeEncodable`` value builds its tree with: objects with their members, and
/// `Codable` for any member whose type builds no tree itself.
///
/// It stands for one place in the value being encoded, so a member falling back to `Codable`
/// gets its coding path, and arrays the encoding memo of `JSONValueEncoder.encode(_:memo:)`.
public struct JSONTreeEncoder {
    let place: TreePlace

    init(node: TreeEncoder) {
        place = TreePlace(parent: node, key: nil)
    }

    init(place: TreePlace) {
        self.place = place
    }

    /// The `userInfo` the encoding was given.
    public var userInfo: [CodingUserInfoKey: Any] { place.parent.userInfo }

    /// A builder for an object of about `capacity` members at this place.
    public func object(capacity: Int) -> JSONTreeObjectEncoder {
        JSONTreeObjectEncoder(place: place, capacity: capacity)
    }

    /// The encoder for the value at `key` below this place: an enum case's associated values.
    public func nested(forKey key: String) -> JSONTreeEncoder {
        JSONTreeEncoder(place: TreePlace(parent: place.node, key: .named(key)))
    }

    /// `value` as the whole of this place: a raw-value enum's raw value.
    public func encode(_ value: String) throws -> JSONValue {
        .string(value)
    }

    /// `value` as the whole of this place: a raw-value enum's raw value.
    public func encode(_ value: Int) throws -> JSONValue {
        .int(value)
    }

    /// `value` as the whole of this place, as `JSONValueEncoder` encodes it.
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        try place.node.box(value, at: nil)
    }

    /// The object of one member, `key`: an enum case, whose associated values are `value`.
    public func caseObject(_ key: String, _ value: JSONValue) -> JSONValue {
        .object(JSONObject(sortedKeys: [key], values: [value]))
    }

    /// The empty object: a case without associated values.
    public var emptyObject: JSONValue { .object(JSONObject()) }
}

/// A place in the value being encoded: `key` below `parent`, or `parent` itself.
///
/// Its `TreeEncoder` is made only when something needs it (a member encoded through
/// `Codable`, an error's coding path): a nested value that builds its own tree of scalars, a
/// secret or a raw-value enum, needs none, and making one for each cost replaying a login
/// recording about 5 % (685k–698k against 705k–748k steps/s).
struct TreePlace {
    let parent: TreeEncoder
    let key: JSONCodingKey?

    var node: TreeEncoder {
        key.map { parent.child(at: $0) } ?? parent
    }
}

/// The members of one object being built by a ``JSONTreeEncodable`` value, in any order.
///
/// Each `encode` follows `Encodable`'s keyed container: an optional member that is `nil` is
/// left out (`encodeIfPresent`), a double must be finite, and any type without an overload of
/// its own is encoded as `JSONValueEncoder` encodes it.
public struct JSONTreeObjectEncoder {
    let place: TreePlace
    /// The place's encoder, once a member has needed it.
    private var madeNode: TreeEncoder?
    var keys: [String] = []
    var values: [JSONValue] = []

    init(place: TreePlace, capacity: Int) {
        self.place = place
        keys.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    private mutating func node() -> TreeEncoder {
        if let madeNode { return madeNode }
        let node = place.node
        madeNode = node
        return node
    }

    // Every overload throws, so that the members a macro writes all read `try`.

    /// The object built so far.
    public consuming func finish() -> JSONValue {
        // `@RewindCodable` appends in key order; sorting (and copying) is for other callers.
        guard JSONObject.isStrictlyIncreasing(keys) else {
            var keys = self.keys
            var values = self.values
            JSONObject.sort(keys: &keys, values: &values)
            return .object(JSONObject(sortedKeys: keys, values: values))
        }
        return .object(JSONObject(sortedKeys: keys, values: values))
    }

    private mutating func append(_ value: JSONValue, _ key: String) {
        keys.append(key)
        values.append(value)
    }

    /// A string member.
    public mutating func encode(_ value: String, forKey key: String) throws {
        append(.string(value), key)
    }

    /// A bool member.
    public mutating func encode(_ value: Bool, forKey key: String) throws {
        append(.bool(value), key)
    }

    /// An integer member.
    public mutating func encode(_ value: Int, forKey key: String) throws {
        append(.int(value), key)
    }

    /// A double member, which must be finite.
    public mutating func encode(_ value: Double, forKey key: String) throws {
        // Not finite, it throws `box`'s error, with its coding path.
        append(value.isFinite ? .double(value) : try node().box(value, at: JSONCodingKey.named(key)), key)
    }

    /// A member that builds its own tree.
    public mutating func encode<T: JSONTreeEncodable>(_ value: T, forKey key: String) throws {
        append(try value.encodeTree(JSONTreeEncoder(place: TreePlace(parent: node(), key: .named(key)))), key)
    }

    /// An array of values that build their own trees; with a memo, the memo's path (which
    /// re-encodes only the elements that changed).
    public mutating func encode<T: JSONTreeEncodable>(_ value: [T], forKey key: String) throws {
        let codingKey = JSONCodingKey.named(key)
        guard place.parent.memo == nil else { return append(try node().box(value, at: codingKey), key) }
        let array = node().child(at: codingKey)
        var elements: [JSONValue] = []
        elements.reserveCapacity(value.count)
        for (index, element) in value.enumerated() {
            elements.append(try element.encodeTree(JSONTreeEncoder(place: TreePlace(parent: array, key: .index(index)))))
        }
        append(.array(elements), key)
    }

    /// Any other `Encodable` value, as `JSONValueEncoder` encodes it.
    public mutating func encode<T: Encodable>(_ value: T, forKey key: String) throws {
        append(try node().box(value, at: JSONCodingKey.named(key)), key)
    }

    /// An optional string member, left out when `nil`.
    public mutating func encode(_ value: String?, forKey key: String) throws {
        if let value { try encode(value, forKey: key) }
    }

    /// An optional bool member, left out when `nil`.
    public mutating func encode(_ value: Bool?, forKey key: String) throws {
        if let value { try encode(value, forKey: key) }
    }

    /// An optional integer member, left out when `nil`.
    public mutating func encode(_ value: Int?, forKey key: String) throws {
        if let value { try encode(value, forKey: key) }
    }

    /// An optional double member, left out when `nil`.
    public mutating func encode(_ value: Double?, forKey key: String) throws {
        if let value { try encode(value, forKey: key) }
    }

    /// An optional member that builds its own tree, left out when `nil`.
    public mutating func encode<T: JSONTreeEncodable>(_ value: T?, forKey key: String) throws {
        if let value { try encode(value, forKey: key) }
    }

    /// An optional array of values that build their own trees, left out when `nil`.
    public mutating func encode<T: JSONTreeEncodable>(_ value: [T]?, forKey key: String) throws {
        if let value { try encode(value, forKey: key) }
    }

    /// Any other optional member, left out when `nil`.
    public mutating func encode<T: Encodable>(_ value: T?, forKey key: String) throws {
        if let value { try encode(value, forKey: key) }
    }
}
