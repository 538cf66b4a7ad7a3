/// Writes an object's members into its encoder's `keys` and `values`.
///
/// Members are appended in the order they are encoded and sorted once, in
/// `TreeEncoder.takeValue()`; encoding a key twice keeps the last value, as `JSONEncoder` does.
struct TreeKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: TreeEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    private func append(_ value: JSONValue, for key: Key) {
        encoder.keys.append(key.stringValue)
        encoder.values.append(value)
    }

    mutating func encodeNil(forKey key: Key) throws { append(.null, for: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { append(.bool(value), for: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { append(.string(value), for: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { append(try encoder.box(value, at: key), for: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { append(try encoder.box(value, at: key), for: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { append(.int(value), for: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { append(.int(Int(value)), for: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { append(.int(Int(value)), for: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { append(.int(Int(value)), for: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { append(try encoder.box(value, at: key), for: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { append(try encoder.box(value, at: key), for: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { append(.int(Int(value)), for: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { append(.int(Int(value)), for: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { append(try encoder.box(value, at: key), for: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { append(try encoder.box(value, at: key), for: key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        append(try encoder.box(value, at: key), for: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        encoder.deferredChild(key: key, objectKey: key.stringValue).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.deferredChild(key: key, objectKey: key.stringValue).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        encoder.deferredChild(key: JSONCodingKey.super, objectKey: JSONCodingKey.super.stringValue)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.deferredChild(key: key, objectKey: key.stringValue)
    }
}
