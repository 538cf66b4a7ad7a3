#if Servers
import Crypto
import Foundation
import RewindTeamStore

/// The sign-ins of the collectors in front of a team store, kept in it (``TeamStore``'s
/// `rewind_sign_in`): a browser signed in on one collector is signed in on all of them behind
/// a load balancer, and a restart signs nobody out. Times are seconds since 1970, which the
/// collectors' machines share.
///
/// A cookie is 24 random bytes and the first 8 bytes of their HMAC-SHA256 under the store's
/// sign-in key, in base64url: a cookie anyone made up fails the tag and costs no query, so a
/// client without a sign-in cannot make the collector read the store.
struct StoredSignIns: SignIns {
    let store: TeamStore
    /// The key of the cookies' tags (``TeamStore/prepareSignIns()``).
    let tagKey: SymmetricKey
    /// Seconds since 1970; a test's own.
    var now: @Sendable () -> Double = { Date().timeIntervalSince1970 }
    /// Sign-ins held at most; a test's own.
    var capacity = WebSessions.capacity

    /// A use is written at most this often: a page's requests do not each write a row, and
    /// an idle hour is still an hour give or take a minute.
    static let touchInterval: Double = 60

    /// The store's sign-ins, their table and key made when missing.
    static func prepared(in store: TeamStore) async throws -> StoredSignIns {
        StoredSignIns(store: store, tagKey: SymmetricKey(data: try await store.prepareSignIns()))
    }

    func begin(tokenID: String) async throws -> String {
        let time = now()
        var generator = SystemRandomNumberGenerator()
        let random = (0..<24).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let id = WebSessions.base64url(random + tag(random))
        try await store.insertSignIn(
            key: Self.key(id), TeamStore.SignIn(tokenID: tokenID, startedAt: time, seenAt: time), startedBefore: time - WebSessions.lifetime,
            seenBefore: time - WebSessions.idle, capacity: capacity)
        return id
    }

    func tokenID(of id: String, refreshing: Bool) async throws -> String? {
        guard isTagged(id), let signIn = try await store.signIn(key: Self.key(id)) else { return nil }
        let time = now()
        guard !WebSessions.isOver(started: signIn.startedAt, seen: signIn.seenAt, at: time) else {
            try await store.endSignIn(key: Self.key(id))
            return nil
        }
        if refreshing, time - signIn.seenAt >= Self.touchInterval { try await store.touchSignIn(key: Self.key(id), at: time) }
        return signIn.tokenID
    }

    func end(_ id: String) async throws {
        guard isTagged(id) else { return }
        try await store.endSignIn(key: Self.key(id))
    }

    /// Whether `id` is 32 bytes in base64url whose last 8 are the tag of the first 24,
    /// compared in constant time.
    func isTagged(_ id: String) -> Bool {
        guard WebSessions.isWellFormed(id), let bytes = WebSessions.bytes(base64url: id), bytes.count == 32 else { return false }
        return zip(bytes[24...], tag(Array(bytes[..<24]))).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private func tag(_ random: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: random, using: tagKey).prefix(8))
    }

    private static func key(_ id: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(id.utf8)))
    }
}
#endif
