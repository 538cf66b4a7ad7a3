/// A string that never leaves the process in clear, such as a password.
///
/// Whatever encodes it (the recorder, an export, a debug print) gets a placeholder that keeps
/// only the length: `{"$redacted": 8}`. Decoding that placeholder gives a secret of the same
/// length made of `•`, so a reducer that reads only the length (a password-length check)
/// behaves the same on replay as it did live.
public struct Secret: Hashable, Sendable, Codable, ExpressibleByStringLiteral {
    /// The clear value; in a decoded placeholder, `•` repeated to the original length.
    public let value: String
    /// Whether this secret was decoded from a placeholder rather than typed by a user.
    public let isRedacted: Bool
    /// The number of characters, which is all the placeholder keeps; counted once, because
    /// counting the characters of a string is slow and every encode of a state needs it.
    public let count: Int

    /// The key of the placeholder object, which marks a redacted field in a log or export.
    public static let placeholderKey = "$redacted"

    /// Wraps a clear value.
    public init(_ value: String) {
        self.value = value
        self.isRedacted = false
        count = value.count
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The placeholder that stands for a secret of `length` characters.
    public init(redactedLength length: Int) {
        self.init(value: String(repeating: "•", count: max(0, length)), count: max(0, length))
    }

    /// Whether the secret is empty.
    public var isEmpty: Bool { value.isEmpty }

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
        guard (0...1_000_000).contains(length) else {
            throw DecodingError.dataCorruptedError(
                forKey: PlaceholderKey(), in: container,
                debugDescription: "a redacted secret's length must be between 0 and 1,000,000"
            )
        }
        let filler = decoder.userInfo[.secretFiller] as? Character ?? "•"
        self.init(value: String(repeating: filler, count: length), count: length)
    }

    private init(value: String, count: Int) {
        self.value = value
        self.isRedacted = true
        self.count = count
    }

    /// Two secrets are equal when their values are; a placeholder equals only a placeholder.
    public static func == (lhs: Secret, rhs: Secret) -> Bool {
        lhs.value == rhs.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }
}

extension CodingUserInfoKey {
    /// The character a decoded placeholder is filled with (`•` when absent). Replay decodes
    /// twice with different fillers to find steps that read more of a secret than its length.
    public static let secretFiller = CodingUserInfoKey(rawValue: "rewind.secretFiller")!
}

extension Secret: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "<redacted \(count)>" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["count": count]) }
}
