import RewindJSON

/// A string that never leaves the process in clear, such as a password.
///
/// Whatever encodes it (the recorder, an export, a debug print) gets a placeholder that keeps
/// only the length: `{"$redacted": 8}`. Decoding that placeholder gives a secret of the same
/// length made of `•`, so a reducer that reads only the length (``count``, ``isEmpty``)
/// behaves the same on replay as it did live.
///
/// A reducer that reads more (``value``, `==`, a hash) gets an answer from the placeholder,
/// not from the secret. Replay notices: a placeholder decoded for replay reports every such
/// read, so a step whose outcome may hang on the clear value is reported as unverifiable,
/// never as a divergence or a pass.
public struct Secret: Sendable, Codable, ExpressibleByStringLiteral {
    /// The clear value, or `•` repeated to the original length in a decoded placeholder.
    ///
    /// Reading it from a placeholder during a replay marks the step as reading the secret.
    public var value: String {
        reads?.markRead()
        return isRedacted ? String(repeating: "•", count: count) : storage
    }
    /// Whether this secret was decoded from a placeholder rather than typed by a user.
    public let isRedacted: Bool
    /// The number of characters, which is all the placeholder keeps; counted once, because
    /// counting the characters of a string is slow and every encode of a state needs it.
    public let count: Int
    /// The clear value; empty in a placeholder, whose value is made when it is read: a replay
    /// decodes a placeholder at every step that holds one, and making each value was 3 % of
    /// replaying a login recording.
    private let storage: String
    /// Where a placeholder decoded for replay reports reads of its characters; nil otherwise.
    private let reads: SecretReads?

    /// The key of the placeholder object, which marks a redacted field in a log or export
    /// (`RedactedPlaceholder.key` in RewindJSON).
    public static var placeholderKey: String { RedactedPlaceholder.key }
    /// The longest secret a placeholder may stand for: a longer one is damage.
    static let maximumRedactedLength = 1_000_000

    /// Wraps a clear value.
    public init(_ value: String) {
        storage = value
        isRedacted = false
        count = value.count
        reads = nil
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The placeholder that stands for a secret of `length` characters.
    public init(redactedLength length: Int) {
        self.init(placeholderOf: max(0, length), reads: nil)
    }

    init(placeholderOf length: Int, reads: SecretReads?) {
        storage = ""
        isRedacted = true
        count = length
        self.reads = reads
    }

    /// Whether the secret is empty.
    public var isEmpty: Bool { count == 0 }

    private struct PlaceholderKey: CodingKey {
        var stringValue: String { Secret.placeholderKey }
        var intValue: Int? { nil }
        init() {}
        init?(stringValue: String) { if stringValue != Secret.placeholderKey { return nil } }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: PlaceholderKey.self)
        try container.encode(count, forKey: PlaceholderKey())
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: PlaceholderKey.self)
        let length = try container.decode(Int.self, forKey: PlaceholderKey())
        guard (0...Self.maximumRedactedLength).contains(length) else {
            throw DecodingError.dataCorruptedError(
                forKey: PlaceholderKey(), in: container,
                debugDescription: "a redacted secret's length must be between 0 and 1,000,000"
            )
        }
        self.init(placeholderOf: length, reads: decoder.userInfo[.secretReads] as? SecretReads)
    }
}

extension Secret: Hashable {
    /// Two secrets are equal when their values are; a placeholder equals only a placeholder.
    /// Comparing a placeholder reads its characters.
    public static func == (lhs: Secret, rhs: Secret) -> Bool {
        lhs.reads?.markRead()
        rhs.reads?.markRead()
        return lhs.isRedacted == rhs.isRedacted && (lhs.isRedacted ? lhs.count == rhs.count : lhs.storage == rhs.storage)
    }

    public func hash(into hasher: inout Hasher) {
        reads?.markRead()
        hasher.combine(isRedacted)
        if isRedacted { hasher.combine(count) } else { hasher.combine(storage) }
    }
}

extension CodingUserInfoKey {
    /// A ``SecretReads`` that placeholders decoded with it report their reads to.
    public static let secretReads = CodingUserInfoKey(rawValue: "rewind.secretReads")!
}

extension Secret: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "<redacted \(count)>" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["count": count]) }
}
