/// What a store did with an upload of a session's blocks: the answer of
/// ``SessionDestination/receive(_:)``, and the body of a collector's answer (docs/collector.md).
public struct ReceivedBlocks: Sendable, Equatable, Codable {
    /// The last step the store holds of the session after the upload (0: none yet).
    public var storedThrough: Int
    /// Blocks the store did not have and now does.
    public var added: Int
    /// Blocks the store had already: a retry's under the same checksum, or an older copy's
    /// held since with more steps.
    public var duplicates: Int
    /// Whether the store holds the session as ended.
    public var ended: Bool
    /// Whether the upload made the store hold the session at all.
    public var created: Bool
    /// The steps the upload added (a grown block's steps held before counted once).
    public var steps: Int
    /// Whether the store wrote anything: false when it held every step, gap and the end of
    /// the upload already.
    public var changed: Bool

    public init(storedThrough: Int, added: Int, duplicates: Int, ended: Bool, created: Bool, steps: Int = 0, changed: Bool = false) {
        self.storedThrough = storedThrough
        self.added = added
        self.duplicates = duplicates
        self.ended = ended
        self.created = created
        self.steps = steps
        self.changed = changed
    }

    enum CodingKeys: String, CodingKey {
        case storedThrough = "stored_through"
        case added, duplicates, ended, created, steps, changed
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        storedThrough = try container.decode(Int.self, forKey: .storedThrough)
        added = try container.decode(Int.self, forKey: .added)
        duplicates = try container.decode(Int.self, forKey: .duplicates)
        ended = try container.decode(Bool.self, forKey: .ended)
        created = try container.decode(Bool.self, forKey: .created)
        // An older collector answers without these two: what its other keys say.
        steps = try container.decodeIfPresent(Int.self, forKey: .steps) ?? 0
        changed = try container.decodeIfPresent(Bool.self, forKey: .changed) ?? (created || added > 0)
    }
}
