/// What a store did with an upload of a session's blocks.
public struct ReceivedBlocks: Sendable, Equatable, Codable {
    /// The last step the store holds of the session after the upload (0: none yet).
    public var storedThrough: Int
    /// Blocks the store did not have and now does.
    public var added: Int
    /// Blocks the store had already, under the same checksum: a retry's.
    public var duplicates: Int
    /// Whether the store holds the session as ended.
    public var ended: Bool
    /// Whether the upload made the store hold the session at all.
    public var created: Bool

    public init(storedThrough: Int, added: Int, duplicates: Int, ended: Bool, created: Bool) {
        self.storedThrough = storedThrough
        self.added = added
        self.duplicates = duplicates
        self.ended = ended
        self.created = created
    }

    enum CodingKeys: String, CodingKey {
        case storedThrough = "stored_through"
        case added, duplicates, ended, created
    }
}
