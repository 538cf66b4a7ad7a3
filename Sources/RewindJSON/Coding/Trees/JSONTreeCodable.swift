/// A value that both builds and reads its `JSONValue` tree itself.
public typealias JSONTreeCodable = JSONTreeEncodable & JSONTreeDecodable
