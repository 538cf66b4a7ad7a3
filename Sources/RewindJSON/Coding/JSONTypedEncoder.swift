/// A `JSONValueEncoder` for values of one type, which has asked once whether the type builds
/// its own tree (`JSONTreeEncodable`).
///
/// `JSONValueEncoder` asks at every encode, a lookup in the runtime's conformance cache; a
/// recorder or a replay encodes thousands of states of one type.
public struct JSONTypedEncoder<T: Encodable> {
    /// The encoder it encodes with.
    public let encoder: JSONValueEncoder
    private let treeType: (any JSONTreeEncodable.Type)?

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
}
