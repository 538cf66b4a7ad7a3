/// A value that builds its `JSONValue` tree itself, without going through `Encoder`.
///
/// `JSONValueEncoder` calls ``encodeTree(_:)`` instead of `encode(to:)`. It must build exactly
/// the tree `encode(to:)` builds: the `@RewindCodable` macro writes it from the type's stored
/// properties or cases, as Swift synthesizes `Encodable`. The gain is speed: `Codable` reaches
/// each value through the `Encoder` existential, a container object per value and generic
/// metadata lookups, which was most of the time recording and replaying a small state took.
public protocol JSONTreeEncodable: Encodable {
    /// The tree of this value: the one `encode(to:)` would give.
    func encodeTree(_ encoder: JSONTreeEncoder) throws -> JSONValue

    /// Writes this value into `writer`: the canonical text of the tree ``encodeTree(_:)``
    /// builds, with its tape of digests, and no tree. A recorder writes every state and action
    /// so. `@RewindCodable` writes it member by member; by default it builds the tree.
    func writeJSON(to writer: inout JSONStateWriter) throws

    /// The labels, in order, of an initializer that takes every stored property a decoder
    /// sets (the memberwise one, or one of the type's own with the same labels), from which
    /// `rewind write-test` writes a value as `Type(label: value, …)`; nil when the type has
    /// none, and then a test reads the value from its recorded JSON. `@RewindCodable` writes it
    /// from the declaration; by default nil.
    static var initializerLabels: [String]? { get }
}

extension JSONTreeEncodable {
    public func writeJSON(to writer: inout JSONStateWriter) throws {
        writer.tree(try JSONValueEncoder().encode(self))
    }

    public static var initializerLabels: [String]? { nil }
}

// Called on the type a cast found, so that the value is never boxed in an existential: a
// state or an action is too large for one's inline buffer, and the boxes were 6 % of replaying
// a login recording (549k–578k against 674k–676k steps/s without them).
extension JSONTreeEncodable {
    /// The tree of `value`, which is of this type, built at `node`.
    static func encodeTree<T>(of value: T, at node: TreeEncoder) throws -> JSONValue {
        precondition(T.self == Self.self)
        return try unsafeBitCast(value, to: Self.self).encodeTree(JSONTreeEncoder(node: node))
    }
}

extension JSONTreeEncodable {
    /// Writes `value`, which must be of this type, into `writer`: for code that holds the type
    /// as `any JSONTreeEncodable.Type` and the value as a generic one.
    public static func writeJSON<T>(of value: T, to writer: inout JSONStateWriter) throws {
        precondition(T.self == Self.self)
        // Read in place: a cast copied the value, and destroyed the copy after.
        try withUnsafePointer(to: value) { pointer in
            try UnsafeRawPointer(pointer).assumingMemoryBound(to: Self.self).pointee.writeJSON(to: &writer)
        }
    }
}
