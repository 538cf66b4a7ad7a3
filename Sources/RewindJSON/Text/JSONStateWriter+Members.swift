/// What `@RewindCodable`'s ``JSONTreeEncodable/writeJSON(to:)`` calls: a member or a value of
/// each kind, following `JSONTreeObjectEncoder`'s overloads, and so `Encodable`'s keyed
/// container: an optional member that is `nil` is left out, a double must be finite, and any
/// type without an overload of its own is encoded as `JSONValueEncoder` encodes it, into a tree
/// written whole.
extension JSONStateWriter {
    /// A member `@RewindCodable` could not write: the caller writes the whole value again
    /// through its tree, which throws `Codable`'s error, with its coding path.
    public struct Refusal: Error {
        public init() {}
    }

    public mutating func member(_ key: StaticString, _ value: String) throws {
        self.key(key)
        string(value)
    }

    public mutating func member(_ key: StaticString, _ value: Bool) throws {
        self.key(key)
        bool(value)
    }

    public mutating func member(_ key: StaticString, _ value: Int) throws {
        self.key(key)
        int(value)
    }

    public mutating func member(_ key: StaticString, _ value: Double) throws {
        guard value.isFinite else { throw Refusal() }
        self.key(key)
        double(value)
    }

    public mutating func member<T: JSONTreeEncodable>(_ key: StaticString, _ value: T) throws {
        self.key(key)
        try value.writeJSON(to: &self)
    }

    public mutating func member<T: JSONTreeEncodable>(_ key: StaticString, _ value: [T]) throws {
        self.key(key)
        beginArray()
        for element in value { try element.writeJSON(to: &self) }
        endArray()
    }

    public mutating func member<T: Encodable>(_ key: StaticString, _ value: T) throws {
        self.key(key)
        try encodable(value)
    }

    public mutating func member(_ key: StaticString, _ value: String?) throws {
        if let value { try member(key, value) }
    }

    public mutating func member(_ key: StaticString, _ value: Bool?) throws {
        if let value { try member(key, value) }
    }

    public mutating func member(_ key: StaticString, _ value: Int?) throws {
        if let value { try member(key, value) }
    }

    public mutating func member(_ key: StaticString, _ value: Double?) throws {
        if let value { try member(key, value) }
    }

    public mutating func member<T: JSONTreeEncodable>(_ key: StaticString, _ value: T?) throws {
        if let value { try member(key, value) }
    }

    public mutating func member<T: JSONTreeEncodable>(_ key: StaticString, _ value: [T]?) throws {
        if let value { try member(key, value) }
    }

    public mutating func member<T: Encodable>(_ key: StaticString, _ value: T?) throws {
        if let value { try member(key, value) }
    }

    /// An enum case's object, `{"name": {…}}`, its associated values written by `payload`.
    public mutating func caseObject(_ name: StaticString, _ payload: (inout JSONStateWriter) throws -> Void) rethrows {
        beginObject()
        key(name)
        beginObject()
        try payload(&self)
        endObject()
        endObject()
    }

    /// A raw-value enum's raw value.
    public mutating func value(_ value: String) throws {
        string(value)
    }

    /// A raw-value enum's raw value.
    public mutating func value(_ value: Int) throws {
        int(value)
    }

    /// Any other value, as `JSONValueEncoder` encodes it.
    public mutating func value<T: Encodable>(_ value: T) throws {
        try encodable(value)
    }

    /// `value`, encoded by `JSONValueEncoder` into a tree written whole.
    mutating func encodable<T: Encodable>(_ value: T) throws {
        tree(try JSONValueEncoder().encode(value))
    }
}
