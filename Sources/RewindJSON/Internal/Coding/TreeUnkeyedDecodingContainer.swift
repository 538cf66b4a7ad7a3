/// Reads an array's elements in order; a failed decode leaves the position where it was.
struct TreeUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let decoder: TreeDecoder
    let elements: [JSONValue]
    private(set) var currentIndex = 0

    init(decoder: TreeDecoder, elements: [JSONValue]) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private var currentKey: JSONCodingKey { .index(currentIndex) }

    /// The current element, or `valueNotFound` at the end.
    private func current(_ type: Any.Type) throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: decoder.codingPath(appending: currentKey),
                    debugDescription: "Unkeyed container is at end."))
        }
        return elements[currentIndex]
    }

    private mutating func advance<T>(_ decoded: T) -> T {
        currentIndex += 1
        return decoded
    }

    mutating func decodeNil() throws -> Bool {
        guard case .null = try current(Never.self) else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { advance(try decoder.unbox(current(type), as: type, at: currentKey)) }
    mutating func decode(_ type: String.Type) throws -> String { advance(try decoder.unbox(current(type), as: type, at: currentKey)) }
    mutating func decode(_ type: Double.Type) throws -> Double { advance(try decoder.unbox(current(type), as: type, at: currentKey)) }
    mutating func decode(_ type: Float.Type) throws -> Float { advance(try decoder.unbox(current(type), as: type, at: currentKey)) }
    mutating func decode(_ type: Int.Type) throws -> Int { advance(try decoder.unbox(current(type), as: type, at: currentKey)) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { advance(try decoder.unbox(current(type), as: type, at: currentKey)) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { advance(try decoder.unbox(current(type), as: type, at: currentKey)) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { advance(try decoder.unbox(current(type), as: type, at: currentKey)) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { advance(try decoder.unbox(current(type), as: type, at: currentKey)) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { advance(try decoder.unbox(current(type), as: type, at: currentKey)) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { advance(try decoder.unbox(current(type), as: type, at: currentKey)) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { advance(try decoder.unbox(current(type), as: type, at: currentKey)) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { advance(try decoder.unbox(current(type), as: type, at: currentKey)) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { advance(try decoder.unbox(current(type), as: type, at: currentKey)) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        advance(try decoder.unbox(current(type), as: type, at: currentKey))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        advance(try decoder.child(for: current([String: Any].self), at: currentKey).container(keyedBy: type))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        advance(try decoder.child(for: current([Any].self), at: currentKey).unkeyedContainer())
    }

    mutating func superDecoder() throws -> any Decoder {
        advance(decoder.child(for: try current(Any.self), at: currentKey))
    }
}
