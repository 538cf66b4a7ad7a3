/// A `JSONValueEncoder` for values of one type, which has asked once whether the type builds
/// its own tree (`JSONTreeEncodable`).
///
/// `JSONValueEncoder` asks at every encode, a lookup in the runtime's conformance cache; a
/// recorder or a replay encodes thousands of states of one type.
public struct JSONTypedEncoder<T: Encodable> {
    /// The encoder it encodes with.
    public let encoder: JSONValueEncoder
    /// The type, when it builds its own tree and writes its own text.
    public let treeType: (any JSONTreeEncodable.Type)?

    /// An encoder of `type` with the settings of `encoder`.
    public init(_ type: T.Type, encoder: JSONValueEncoder = JSONValueEncoder()) {
        self.encoder = encoder
        treeType = encoder.treeType(of: type)
    }

    /// The tree for `value`, as `JSONValueEncoder.encode(_:)` builds it.
    public func encode(_ value: T) throws -> JSONValue {
        try encoder.encode(value, memo: nil, treeType: treeType)
    }

    /// The tree for `value`, as `JSONValueEncoder.encode(_:memo:)` builds it.
    public func encode(_ value: T, memo: JSONEncodingMemo) throws -> JSONValue {
        try encoder.encode(value, memo: memo, treeType: treeType)
    }

    /// Whether the type writes its text itself (``JSONTreeEncodable/writeJSON(to:)``), so that
    /// ``write(_:to:)`` builds no tree.
    public var writesText: Bool { treeType != nil }

    /// Writes `value` into `writer`: by its own ``JSONTreeEncodable/writeJSON(to:)``, or else
    /// as the tree `encode(_:)` builds.
    public func write(_ value: T, to writer: inout JSONStateWriter) throws {
        if let treeType {
            try treeType.writeJSON(of: value, to: &writer)
        } else {
            writer.tree(try encode(value))
        }
    }
}
