#if Servers
import Crypto
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The tokens a collector lets in, kept in a file beside its store (`STORE.tokens`, mode
/// 0600) as JSON: each token's id, app, scope and the SHA-256 of its secret, never the secret.
///
/// A token reads `rwt_ID_SECRET`: 8 random bytes of id in hex, 32 of secret in base64url.
/// With 256 bits of entropy a fast hash is enough (no password stretching); hashes are
/// compared in constant time.
public struct CollectorTokens: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The tokens of the file, revoked ones too; none when it does not exist.
    public func load() throws(CollectorError) -> [CollectorToken] {
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) {
                throw CollectorError(status: 500, code: "tokens_unreadable", "\(path): cannot read the token file")
            }
            return []
        }
        do {
            return try SecretFile.decoder.decode(TokenFile.self, from: data).tokens
        } catch {
            throw CollectorError(status: 500, code: "tokens_unreadable", "\(path): not a Rewind token file")
        }
    }

    /// Makes a token for `app` and returns it: the only time its secret is seen.
    public func create(app: String, scope: CollectorToken.Scope, now: Date = Date()) throws(CollectorError) -> String {
        guard (1...64).contains(app.utf8.count), app.unicodeScalars.allSatisfy({ Self.appCharacters.contains($0) }) else {
            throw CollectorError(
                status: 400, code: "invalid_app", "an app's name is 1 to 64 letters, digits, '.', '-' or '_' (got \(app.debugDescription))")
        }
        return try withLock { () throws(CollectorError) -> String in
            var tokens = try load()
            var generator = SystemRandomNumberGenerator()
            let id = (0..<8).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
            let secretBytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let secret = Data(secretBytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            tokens.append(CollectorToken(id: id, app: app, scope: scope, secretHash: Self.hash(secret), createdAt: now))
            try save(tokens)
            return "rwt_\(id)_\(secret)"
        }
    }

    /// Revokes the token `id`; false when the file has no such token, or has it revoked.
    public func revoke(id: String, now: Date = Date()) throws(CollectorError) -> Bool {
        try withLock { () throws(CollectorError) -> Bool in
            var tokens = try load()
            guard let index = tokens.firstIndex(where: { $0.id == id && $0.revokedAt == nil }) else { return false }
            tokens[index].revokedAt = now
            try save(tokens)
            return true
        }
    }

    private func withLock<T>(_ body: () throws(CollectorError) -> T) throws(CollectorError) -> T {
        try file.withLock(body)
    }

    private var file: SecretFile { SecretFile(path: path, what: "token file", code: "tokens_unwritable") }

    /// The token of `tokens` that `presented` is, unless revoked.
    static func verify(_ presented: String, among tokens: [CollectorToken]) -> CollectorToken? {
        let parts = presented.split(separator: "_", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "rwt", parts[1].utf8.count == 16, (1...64).contains(parts[2].utf8.count) else { return nil }
        let presentedHash = SHA256.hash(data: Array(parts[2].utf8))
        let found = tokens.first { $0.id == parts[1] && $0.revokedAt == nil }
        // The hash is compared even for an unknown id, so that a wrong id and a wrong secret
        // take the same time.
        let stored = found.flatMap { Self.bytes(hex: $0.secretHash) } ?? Array(repeating: 0, count: 32)
        var difference: UInt8 = stored.count == 32 ? 0 : 1
        for (a, b) in zip(presentedHash, stored) { difference |= a ^ b }
        return difference == 0 ? found : nil
    }

    static func hash(_ secret: String) -> String {
        SHA256.hash(data: Array(secret.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 64, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }

    /// Writes `tokens` over the file, whole (``SecretFile/replace(with:)``).
    private func save(_ tokens: [CollectorToken]) throws(CollectorError) {
        let data: Data
        do {
            data = try SecretFile.encoder.encode(TokenFile(version: 1, tokens: tokens))
        } catch {
            throw CollectorError(status: 500, code: "tokens_unwritable", "\(path): \(error)")
        }
        try file.replace(with: data)
    }

    private struct TokenFile: Codable {
        var version: Int
        var tokens: [CollectorToken]
    }

    private static let appCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")
}
#endif
