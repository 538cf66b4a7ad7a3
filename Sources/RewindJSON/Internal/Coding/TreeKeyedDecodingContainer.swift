/// Reads an object's members by binary search on its sorted keys.
struct TreeKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TreeDecoder
    let object: JSONObject

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        // A plain loop: `compactMap` ran as generic code that looked up runtime metadata at
        // every element, and every enum decodes through `allKeys`.
        var keys: [Key] = []
        keys.reserveCapacity(object.count)
        for name in object.keys {
            if let key = Key(stringValue: name) { keys.append(key) }
        }
        return keys
    }

    func contains(_ key: Key) -> Bool {
        object.index(of: key.stringValue) != nil
    }

    private func value(for key: Key) throws -> JSONValue {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try value(for: key) { true } else { false }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.unbox(value(for: key), as: type, at: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.unbox(value(for: key), as: type, at: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.unbox(value(for: key), as: type, at: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.unbox(value(for: key), as: type, at: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.unbox(value(for: key), as: type, at: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.unbox(value(for: key), as: type, at: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.unbox(value(for: key), as: type, at: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.unbox(value(for: key), as: type, at: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.unbox(value(for: key), as: type, at: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.unbox(value(for: key), as: type, at: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.unbox(value(for: key), as: type, at: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.unbox(value(for: key), as: type, at: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.unbox(value(for: key), as: type, at: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.unbox(value(for: key), as: type, at: key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unbox(value(for: key), as: type, at: key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.child(for: value(for: key), at: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(for: value(for: key), at: key).unkeyedContainer()
    }

    // A missing superclass member reads as null, as in JSONDecoder.
    func superDecoder() throws -> any Decoder {
        decoder.child(for: object[JSONCodingKey.super.stringValue] ?? .null, at: JSONCodingKey.super)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(for: object[key.stringValue] ?? .null, at: key)
    }
}
