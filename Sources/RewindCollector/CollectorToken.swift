#if Servers
import Foundation

/// A token a collector lets in, as its token file keeps it: never the secret, only its hash.
public struct CollectorToken: Sendable, Equatable, Codable {
    /// What a token may do.
    public enum Scope: String, Sendable, Codable, CaseIterable {
        /// Upload sessions, and ask how far an upload got.
        case upload
        /// Read sessions: list them, fetch a session's log or its report.
        case read
    }

    /// Its public part, 16 hex digits: how `token revoke` names it.
    public var id: String
    /// The app it was made for.
    public var app: String
    public var scope: Scope
    /// SHA-256 of the secret part, in hex.
    public var secretHash: String
    public var createdAt: Date
    public var revokedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, app, scope
        case secretHash = "secret_sha256"
        case createdAt = "created_at"
        case revokedAt = "revoked_at"
    }

    public init(id: String, app: String, scope: Scope, secretHash: String, createdAt: Date, revokedAt: Date? = nil) {
        self.id = id
        self.app = app
        self.scope = scope
        self.secretHash = secretHash
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}
#endif
