import RewindJSON

/// Checks that a type's own tree coding (`@RewindCodable`, or a hand-written
/// `JSONTreeCodable`) agrees with its `Codable` on `values`: the same tree built, the same text
/// and digest written by `writeJSON(to:)`, and the tree read back as a value `Codable` encodes
/// to the same tree again.
///
/// Recording and replay use the tree coding where a type has one, so a difference would make
/// what is stored depend on which path encoded it. Call it in a test with values that reach
/// every case and every optional member, both set and `nil`.
///
/// - Throws: ``TreeCodingFailure`` at the first value that disagrees.
public func verifyTreeCoding<T: JSONTreeCodable>(of values: some Sequence<T>) throws {
    let treeEncoder = JSONValueEncoder()
    var codableEncoder = JSONValueEncoder()
    codableEncoder.prefersTreeCoding = false
    var codableDecoder = JSONValueDecoder()
    codableDecoder.prefersTreeCoding = false
    for (index, value) in values.enumerated() {
        let expected = try codableEncoder.encode(value)
        let built = try treeEncoder.encode(value)
        guard built == expected else {
            throw TreeCodingFailure(type: T.self, index: index, step: "encodeTree(_:)", expected: expected, found: built)
        }
        try verifyWrittenJSON(of: value, index: index, expected: expected)
        let decodedByCodable = try codableEncoder.encode(try codableDecoder.decode(T.self, from: expected))
        // Called directly: through `JSONValueDecoder`, a refusal would fall back to `Codable`.
        let decoded: JSONValue
        do {
            decoded = try codableEncoder.encode(try T(tree: expected, JSONTreeDecoder()))
        } catch {
            throw TreeCodingFailure(type: T.self, index: index, step: "init(tree:_:)", expected: decodedByCodable, found: nil, refusal: error)
        }
        guard decoded == decodedByCodable else {
            throw TreeCodingFailure(type: T.self, index: index, step: "init(tree:_:)", expected: decodedByCodable, found: decoded)
        }
    }
}

/// Checks that `value` writes the canonical text of `expected` and its digest, with text and
/// without, by each rule of digests.
private func verifyWrittenJSON<T: JSONTreeEncodable>(of value: T, index: Int, expected: JSONValue) throws {
    for rule in [StateDigest.Rule.summed, .chained] {
        var writer = JSONStateWriter(rule: rule)
        try value.writeJSON(to: &writer)
        let text = writer.text.withBytes { Array($0) }
        let found = try? JSONValue(parsing: text)
        guard text == expected.canonicalBytes, writer.digest == expected.digest(by: rule), writer.nodeCount > 0 else {
            throw TreeCodingFailure(
                type: T.self, index: index, step: "writeJSON(to:)", expected: expected, found: found ?? .string(String(decoding: text, as: UTF8.self)))
        }
        var digester = JSONStateWriter(writingText: false, rule: rule)
        try value.writeJSON(to: &digester)
        guard digester.digest == expected.digest(by: rule) else {
            throw TreeCodingFailure(type: T.self, index: index, step: "writeJSON(to:) without text", expected: expected, found: found)
        }
    }
}

/// Where a type's tree coding and its `Codable` disagree, found by ``verifyTreeCoding(of:)``.
public struct TreeCodingFailure: Error, CustomStringConvertible {
    /// The type checked.
    public let type: Any.Type
    /// The position of the value among those checked.
    public let index: Int
    /// Which part disagreed: `encodeTree(_:)`, `writeJSON(to:)` or `init(tree:_:)`.
    public let step: String
    /// The tree `Codable` gives.
    public let expected: JSONValue
    /// The tree the type's own coding gives; `nil` when `init(tree:_:)` refused a tree that
    /// `Codable` reads.
    public let found: JSONValue?
    /// Why `init(tree:_:)` refused the tree, when it did.
    public let refusal: (any Error)?

    init(type: Any.Type, index: Int, step: String, expected: JSONValue, found: JSONValue?, refusal: (any Error)? = nil) {
        self.type = type
        self.index = index
        self.step = step
        self.expected = expected
        self.found = found
        self.refusal = refusal
    }

    public var description: String {
        guard let found else {
            return "\(type) value #\(index): \(step) refused a tree Codable reads (\(refusal.map { "\($0)" } ?? "no error")): \(expected)"
        }
        let changes = JSONDiff.changes(from: expected, to: found).prefix(3).map(\.description).joined(separator: "; ")
        return "\(type) value #\(index): \(step) disagrees with Codable: \(changes) (Codable: \(expected), tree: \(found))"
    }
}
