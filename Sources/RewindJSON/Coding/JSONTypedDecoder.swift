/// A `JSONValueDecoder` for values of one type, which has asked once whether the type reads
/// its own tree (`JSONTreeDecodable`).
///
/// `JSONValueDecoder` asks at every decode, a lookup in the runtime's conformance cache: with
/// the encoder's, 3–4 % of replaying a login recording, which decodes thousands of actions of
/// one type.
public struct JSONTypedDecoder<T: Decodable> {
    /// The decoder it decodes with.
    public let decoder: JSONValueDecoder
    private let treeType: (any JSONTreeDecodable.Type)?

    /// A decoder of `type` with the settings of `decoder`.
    public init(_ type: T.Type, decoder: JSONValueDecoder = JSONValueDecoder()) {
        self.decoder = decoder
        treeType = decoder.prefersTreeCoding ? type as? any JSONTreeDecodable.Type : nil
    }

    /// A `T` read from `value`, as `JSONValueDecoder.decode(_:from:)` reads it.
    public func decode(from value: JSONValue) throws -> T {
        try decoder.decode(T.self, from: value, treeType: treeType)
    }
}
