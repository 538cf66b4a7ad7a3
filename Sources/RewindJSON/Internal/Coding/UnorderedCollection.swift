/// A collection whose `Codable` encoding lists its elements in hash order, which Swift seeds
/// anew in every process: a `Set`, or a `Dictionary` whose keys are neither strings nor
/// integers (encoded as an array of keys and values, one after the other).
///
/// Encoded as they come, equal values would give different bytes and digests in the recording
/// and in the replay. The tree encoder sorts them instead, by the canonical bytes of each
/// element (of each key, for a dictionary), so what is stored depends on the value alone.
protocol UnorderedCollection {
    func encodeSorted(in encoder: TreeEncoder, at key: (any CodingKey)?) throws -> JSONValue
}

extension Set: UnorderedCollection where Element: Encodable {
    func encodeSorted(in encoder: TreeEncoder, at key: (any CodingKey)?) throws -> JSONValue {
        let child = encoder.child(at: key)
        var elements: [(bytes: [UInt8], value: JSONValue)] = []
        elements.reserveCapacity(count)
        for (index, element) in enumerated() {
            let value = try child.box(element, at: JSONCodingKey.index(index))
            elements.append((UnorderedCollectionOrder.bytes(of: value), value))
        }
        elements.sort { $0.bytes.lexicographicallyPrecedes($1.bytes) }
        return .array(elements.map(\.value))
    }
}

extension Dictionary: UnorderedCollection where Key: Encodable, Value: Encodable {
    func encodeSorted(in encoder: TreeEncoder, at key: (any CodingKey)?) throws -> JSONValue {
        let child = encoder.child(at: key)
        try encode(to: child)
        let encoded = child.takeValue() ?? .object(JSONObject())
        // String, Int and coding-key keys give an object, whose keys are sorted already.
        guard case let .array(flat) = encoded, flat.count.isMultiple(of: 2) else { return encoded }
        var pairs: [(bytes: [UInt8], key: JSONValue, value: JSONValue)] = []
        pairs.reserveCapacity(flat.count / 2)
        for index in stride(from: 0, to: flat.count, by: 2) {
            pairs.append((UnorderedCollectionOrder.bytes(of: flat[index]), flat[index], flat[index + 1]))
        }
        pairs.sort { $0.bytes.lexicographicallyPrecedes($1.bytes) }
        return .array(pairs.flatMap { [$0.key, $0.value] })
    }
}
