#if Servers
import Foundation
import PostgresNIO
import RewindLog
import RewindUpload

/// Sign-ins to the sessions page of the collectors in front of this store, kept here so that
/// every collector on the store knows them (a load balancer sends a browser to any) and a
/// restart signs nobody out. A row is a sign-in's key (the SHA-256 of the cookie's value,
/// never the value), the id of the read token it signed in with (never its secret), its start
/// and its last use, in seconds since 1970. The collector decides when one is over.
///
/// The table sits beside the schema of sessions (``TeamStore/schemaVersion``), which an older `rewind`
/// reads without knowing it: `rewind serve` creates it when it starts, not a reader.
extension TeamStore {
    /// A sign-in as the store holds it.
    public struct SignIn: Sendable, Equatable {
        public var tokenID: String
        public var startedAt: Double
        public var seenAt: Double

        public init(tokenID: String, startedAt: Double, seenAt: Double) {
            self.tokenID = tokenID
            self.startedAt = startedAt
            self.seenAt = seenAt
        }
    }

    /// Creates the sign-ins' table when it is missing, under the schema's lock (two collectors
    /// started at once), and the store's sign-in key (32 random bytes in `rewind_store`, made
    /// once): the key of the tag each cookie carries, which lets a collector refuse a made-up
    /// cookie without a query. It guards no sign-in (each is its cookie's hash), so it is kept
    /// in the store the collectors share.
    public func prepareSignIns() async throws -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let fresh = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
        do {
            let stored = try await withConnection { connection in
                try await Self.transaction(on: connection, logger: self.logger) { connection in
                    try await connection.query("SELECT pg_advisory_xact_lock(1381453380001)", logger: self.logger)
                    try await connection.query(
                        """
                        CREATE TABLE IF NOT EXISTS rewind_sign_in (
                            key bytea PRIMARY KEY, token_id text NOT NULL, started_at double precision NOT NULL, seen_at double precision NOT NULL)
                        """, logger: self.logger)
                    try await connection.query(
                        "INSERT INTO rewind_store (key, value) VALUES ('sign_in_key', \(fresh)) ON CONFLICT (key) DO NOTHING", logger: self.logger)
                    var value = ""
                    let rows = try await connection.query("SELECT value FROM rewind_store WHERE key = 'sign_in_key'", logger: self.logger)
                    for try await text in rows.decode(String.self) { value = text }
                    return value
                }
            }
            let bytes = stride(from: 0, to: stored.count - 1, by: 2).compactMap { offset -> UInt8? in
                let start = stored.index(stored.startIndex, offsetBy: offset)
                return UInt8(stored[start..<stored.index(start, offsetBy: 2)], radix: 16)
            }
            guard bytes.count == 32 else {
                throw StoreError(.damaged, location: location.description, "the store's sign_in_key is not 32 bytes in hex")
            }
            return bytes
        } catch {
            throw Self.describe(error, location: location.description)
        }
    }

    /// Keeps a new sign-in, after letting go of those over (started before `startedBefore`, or
    /// not seen since `seenBefore`) and, past `capacity`, of the oldest.
    public func insertSignIn(key: [UInt8], _ signIn: SignIn, startedBefore: Double, seenBefore: Double, capacity: Int) async throws {
        let (tokenID, started, seen) = (signIn.tokenID, signIn.startedAt, signIn.seenAt)
        let keep = max(0, capacity - 1)
        do {
            try await withConnection { connection in
                try await connection.query(
                    "DELETE FROM rewind_sign_in WHERE started_at < \(startedBefore) OR seen_at < \(seenBefore)", logger: self.logger)
                try await connection.query(
                    "DELETE FROM rewind_sign_in WHERE key IN (SELECT key FROM rewind_sign_in ORDER BY started_at DESC OFFSET \(keep))",
                    logger: self.logger)
                try await connection.query(
                    "INSERT INTO rewind_sign_in (key, token_id, started_at, seen_at) VALUES (\(Data(key)), \(tokenID), \(started), \(seen))",
                    logger: self.logger)
            }
        } catch {
            throw Self.describe(error, location: location.description)
        }
    }

    /// The sign-in of `key`; nil when the store holds none.
    public func signIn(key: [UInt8]) async throws -> SignIn? {
        do {
            return try await withConnection { connection in
                let rows = try await connection.query(
                    "SELECT token_id, started_at, seen_at FROM rewind_sign_in WHERE key = \(Data(key))", logger: self.logger)
                for try await (tokenID, started, seen) in rows.decode((String, Double, Double).self) {
                    return SignIn(tokenID: tokenID, startedAt: started, seenAt: seen)
                }
                return nil
            }
        } catch {
            throw Self.describe(error, location: location.description)
        }
    }

    /// Notes a use of the sign-in of `key` at `time`.
    public func touchSignIn(key: [UInt8], at time: Double) async throws {
        do {
            try await withConnection { connection in
                _ = try await connection.query("UPDATE rewind_sign_in SET seen_at = \(time) WHERE key = \(Data(key))", logger: self.logger)
            }
        } catch {
            throw Self.describe(error, location: location.description)
        }
    }

    /// Ends the sign-in of `key`.
    public func endSignIn(key: [UInt8]) async throws {
        do {
            try await withConnection { connection in
                _ = try await connection.query("DELETE FROM rewind_sign_in WHERE key = \(Data(key))", logger: self.logger)
            }
        } catch {
            throw Self.describe(error, location: location.description)
        }
    }
}
#endif
