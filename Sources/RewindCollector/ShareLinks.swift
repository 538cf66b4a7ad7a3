#if Servers
import Crypto
import Foundation
import RewindUpload

/// Links that open one session's report in any browser without a token (docs/collector.md):
/// `BASE/s/SESSION?expires=UNIX&key=KEY&sig=SIGNATURE`, where the signature is the
/// HMAC-SHA256, under the collector's link key, of the session, the expiry and the key's id.
///
/// The key lives beside the token file (`TOKENS.links`, mode 0600; made at the first link).
/// A link opens only its session's report, only until it expires, and only while its key is
/// the collector's: ``revokeAll()`` makes a new key, and every link made before stops
/// working. It is never a token: no upload, no other session, no list.
///
/// The signature is in the query, which the access log does not write (it writes the path),
/// so a link's signature never reaches the log.
public struct ShareLinks: Sendable {
    /// The key file.
    public let path: String

    /// The links of the collector whose token file is `tokenFile`.
    public init(tokenFile: String) {
        path = tokenFile + ".links"
    }

    /// Why a link does not open its report, for the page that says so.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// A part is missing or not what it should be: the link was cut.
        case incomplete
        /// The signature does not match: the link was changed, or is another session's.
        case altered
        /// It was made with a key the collector no longer has (`link revoke-all`).
        case revoked
        /// It expired at this time.
        case expired(Date)

        public var description: String {
            switch self {
            case .incomplete: "This link is incomplete: it was cut short or its parts were changed. Ask for the link again."
            case .altered: "This link is not valid: it was changed, or it is a link to another session. Ask for the link again."
            case .revoked: "This link was revoked: the collector's links were all renewed. Ask for a new link."
            case .expired(let date): "This link expired on \(ShareLinks.shown(date)). Ask for a new link."
            }
        }
    }

    /// The longest a link may last: a year.
    public static let longest: TimeInterval = 366 * 86_400

    /// A link to `session`'s report valid until `expires`, on the collector at `base`
    /// (`https://collector.example`, as its readers reach it).
    public func create(session: UUID, expires: Date, base: URL, now: Date = Date()) throws(CollectorError) -> URL {
        guard expires > now, expires.timeIntervalSince(now) <= Self.longest else {
            throw CollectorError(status: 400, code: "invalid_expiry", "a link lasts from a second to 366 days")
        }
        let key = try currentKey(making: true)!
        let seconds = Int(expires.timeIntervalSince1970)
        var components = URLComponents(url: WireRoute.shared.url(on: base, session), resolvingAgainstBaseURL: false)
        components?.queryItems = [
            URLQueryItem(name: "expires", value: String(seconds)), URLQueryItem(name: "key", value: key.id),
            URLQueryItem(name: "sig", value: Self.signature(session: session, expires: seconds, key: key)),
        ]
        guard let url = components?.url else { throw CollectorError(status: 400, code: "invalid_url", "cannot make a link on \(base.absoluteString)") }
        return url
    }

    /// Makes a new key: every link made before stops working.
    public func revokeAll(now: Date = Date()) throws(CollectorError) {
        try file.withLock { () throws(CollectorError) in try save(Self.newKey(now: now)) }
    }

    /// Whether the link of `session` with the query `parameters` opens its report `now`.
    public func check(session: UUID, parameters: [String: String], now: Date = Date()) throws(CollectorError) -> Refusal? {
        guard let expiresText = parameters["expires"], expiresText.utf8.count <= 12, let expires = Int(expiresText),
            let keyID = parameters["key"], keyID.utf8.count == 16, let signature = parameters["sig"], signature.utf8.count == 43
        else { return .incomplete }
        guard let key = try currentKey(making: false), key.id == keyID else {
            // An unknown key id is revoked or made up: the signature under it is not checked.
            return .revoked
        }
        let expected = Array(Self.signature(session: session, expires: expires, key: key).utf8)
        // Compared in constant time, as the tokens' hashes are.
        var difference: UInt8 = 0
        for (a, b) in zip(expected, Array(signature.utf8)) { difference |= a ^ b }
        guard difference == 0 else { return .altered }
        let expiry = Date(timeIntervalSince1970: TimeInterval(expires))
        return expiry > now ? nil : .expired(expiry)
    }

    /// The HMAC-SHA256 of the link's parts, base64url without padding (43 characters).
    static func signature(session: UUID, expires: Int, key: Key) -> String {
        let message = "rewind-share-link-1\n\(session.uuidString)\n\(expires)\n\(key.id)"
        let code = HMAC<SHA256>.authenticationCode(for: Array(message.utf8), using: SymmetricKey(data: key.secret))
        return Data(code).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// A link key: its id (8 random bytes in hex) and 32 random bytes of secret.
    struct Key: Codable, Equatable {
        var id: String
        var secret: Data
        var createdAt: Date

        enum CodingKeys: String, CodingKey {
            case id, secret
            case createdAt = "created_at"
        }
    }

    private var file: SecretFile { SecretFile(path: path, what: "share links' key file", code: "links_unwritable") }

    /// The key of the file; made first when `making` and there is none.
    private func currentKey(making: Bool) throws(CollectorError) -> Key? {
        if let key = try load() { return key }
        guard making else { return nil }
        return try file.withLock { () throws(CollectorError) -> Key in
            if let key = try load() { return key }
            let key = Self.newKey(now: Date())
            try save(key)
            return key
        }
    }

    private func load() throws(CollectorError) -> Key? {
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) {
                throw CollectorError(status: 500, code: "links_unreadable", "\(path): cannot read the share links' key file")
            }
            return nil
        }
        do {
            let file = try SecretFile.decoder.decode(KeyFile.self, from: data)
            guard file.key.secret.count == 32, file.key.id.utf8.count == 16 else { throw CollectorError.badRequest("") }
            return file.key
        } catch {
            throw CollectorError(status: 500, code: "links_unreadable", "\(path): not a Rewind share links' key file")
        }
    }

    private func save(_ key: Key) throws(CollectorError) {
        let data: Data
        do {
            data = try SecretFile.encoder.encode(KeyFile(version: 1, key: key))
        } catch {
            throw CollectorError(status: 500, code: "links_unwritable", "\(path): \(error)")
        }
        try file.replace(with: data)
    }

    private static func newKey(now: Date) -> Key {
        var generator = SystemRandomNumberGenerator()
        let id = (0..<8).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
        return Key(id: id, secret: Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }), createdAt: now)
    }

    private struct KeyFile: Codable {
        var version: Int
        var key: Key
    }

    static func shown(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss 'UTC'"
        return formatter.string(from: date)
    }

}
#endif
