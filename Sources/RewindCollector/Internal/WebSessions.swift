#if Servers
import Crypto
import Foundation

/// The people signed in to the sessions page: each a random id in an `HttpOnly` cookie, kept
/// here as its SHA-256 beside the read token it signed in with (the token's id, never its
/// secret). In memory, for a collector on a log: a restart signs everyone out, and nothing of
/// a sign-in reaches disk. A team store's collectors share theirs (``StoredSignIns``).
///
/// A sign-in lasts ``lifetime`` from its start and ends after ``idle`` without a request; at
/// most ``capacity`` are held (the oldest let go past it), so sign-ins cannot fill the memory.
actor WebSessions: SignIns {
    /// 8 hours: a working day, then sign in again.
    static let lifetime: Double = 8 * 3_600
    /// An hour without a request ends a sign-in.
    static let idle: Double = 3_600
    /// 10,000 sign-ins at about 150 bytes each: 1.5 MB at most.
    static let capacity = 10_000

    private struct Entry {
        var tokenID: String
        var started: Double
        var seen: Double
    }

    private var entries: [String: Entry] = [:]
    /// Seconds on a clock that only goes forward; a test's own.
    private let now: @Sendable () -> Double

    init(now: @escaping @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }) {
        self.now = now
    }

    /// Signs in with the token `tokenID`: the cookie's value, 32 random bytes in base64url.
    func begin(tokenID: String) -> String {
        let time = now()
        if entries.count >= Self.capacity {
            entries = entries.filter { !isOver($0.value, at: time) }
            if entries.count >= Self.capacity, let oldest = entries.min(by: { $0.value.started < $1.value.started }) {
                entries[oldest.key] = nil
            }
        }
        let id = Self.newID()
        entries[Self.key(id)] = Entry(tokenID: tokenID, started: time, seen: time)
        return id
    }

    /// A cookie's value: 32 random bytes in base64url.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return base64url((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// `bytes` in base64url without padding: 32 bytes are 43 characters.
    static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of base64url `text` without padding; nil for any other text.
    static func bytes(base64url text: String) -> [UInt8]? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard).map(Array.init)
    }

    /// Whether `id` has the length of a cookie's value: anything else is looked up nowhere.
    static func isWellFormed(_ id: String) -> Bool {
        id.utf8.count == 43
    }

    /// Whether a sign-in `started` and last `seen` then is over at `time`.
    static func isOver(started: Double, seen: Double, at time: Double) -> Bool {
        time - started >= lifetime || time - seen >= idle
    }

    /// The token id the cookie `id` signed in with, while its sign-in lasts; `refreshing`
    /// counts this as the sign-in's use (a page's request), which the access log's look does
    /// not.
    func tokenID(of id: String, refreshing: Bool = true) -> String? {
        guard Self.isWellFormed(id) else { return nil }
        let key = Self.key(id), time = now()
        guard var entry = entries[key] else { return nil }
        guard !isOver(entry, at: time) else {
            entries[key] = nil
            return nil
        }
        if refreshing {
            entry.seen = time
            entries[key] = entry
        }
        return entry.tokenID
    }

    /// Ends the sign-in of the cookie `id`.
    func end(_ id: String) {
        entries[Self.key(id)] = nil
    }

    /// How many sign-ins are held.
    var count: Int { entries.count }

    private func isOver(_ entry: Entry, at time: Double) -> Bool {
        Self.isOver(started: entry.started, seen: entry.seen, at: time)
    }

    /// The id's SHA-256: a copy of the memory holds no cookie that works.
    private static func key(_ id: String) -> String {
        SHA256.hash(data: Array(id.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
#endif
