@_exported import RewindJSON

/// Writes a coder for Rewind's JSON trees into a `Codable` struct or enum: the tree its
/// synthesized `Codable` builds, built without going through `Encoder` and `Decoder`.
///
/// Recording and replaying encode every state and decode every action; through `Codable`,
/// most of that time goes to the `Encoder` existential, a container object per value and the
/// runtime's generic metadata lookups. A type marked `@RewindCodable` conforms to
/// `JSONTreeEncodable` and `JSONTreeDecodable`, which `JSONValueEncoder` and
/// `JSONValueDecoder` call instead. What is recorded stays the same: the tree equals the one
/// `Codable` builds, and a tree the generated decoder refuses is decoded through `Codable`,
/// whose error says where.
///
/// The macro follows synthesized `Codable` and refuses what it could not follow exactly: a
/// type with its own `CodingKeys`, `encode(to:)` or `init(from:)`, property wrappers, lazy
/// properties. Members whose types are not marked (`Date`, a type from another library) are
/// encoded through `Codable` as before, so marking the types of a state one by one is safe.
@attached(
    extension, conformances: JSONTreeEncodable, JSONTreeDecodable, names: named(encodeTree), named(init(tree:_:)), named(writeJSON), named(initializerLabels))
public macro RewindCodable() = #externalMacro(module: "RewindCodableMacros", type: "RewindCodableMacro")
