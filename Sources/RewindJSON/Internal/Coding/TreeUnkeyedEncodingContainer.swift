/// Appends an array's elements to its encoder's `values`.
struct TreeUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoder: TreeEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    var count: Int { encoder.values.count }

    /// The key of the element about to be appended.
    private var nextKey: JSONCodingKey { .index(encoder.values.count) }

    private func append(_ value: JSONValue) {
        encoder.values.append(value)
    }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try encoder.box(value, at: nextKey)) }
    mutating func encode(_ value: Float) throws { append(try encoder.box(value, at: nextKey)) }
    mutating func encode(_ value: Int) throws { append(.int(value)) }
    mutating func encode(_ value: Int8) throws { append(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { append(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { append(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { append(try encoder.box(value, at: nextKey)) }
    mutating func encode(_ value: UInt) throws { append(try encoder.box(value, at: nextKey)) }
    mutating func encode(_ value: UInt8) throws { append(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { append(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { append(try encoder.box(value, at: nextKey)) }
    mutating func encode(_ value: UInt64) throws { append(try encoder.box(value, at: nextKey)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        append(try encoder.box(value, at: nextKey))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        encoder.deferredChild(key: nextKey, objectKey: nil).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        encoder.deferredChild(key: nextKey, objectKey: nil).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        encoder.deferredChild(key: nextKey, objectKey: nil)
    }
}
