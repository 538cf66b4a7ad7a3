#if Servers
import Crypto
import Foundation
import RewindTeamStore

/// The sign-ins of the collectors in front of a team store, kept in it (``TeamStore``'s
/// `rewind_sign_in`): a browser signed in on one collector is signed in on all of them behind
/// a load balancer, and a restart signs nobody out. Times are seconds since 1970, which the
/// collectors' machines share.
struct StoredSignIns: SignIns {
    let store: TeamStore
    /// Seconds since 1970; a test's own.
    var now: @Sendable () -> Double = { Date().timeIntervalSince1970 }
    /// Sign-ins held at most; a test's own.
    var capacity = WebSessions.capacity

    /// A use is written at most this often: a page's requests do not each write a row, and
    /// an idle hour is still an hour give or take a minute.
    static let touchInterval: Double = 60

    func begin(tokenID: String) async throws -> String {
        let time = now()
        let id = WebSessions.newID()
        try await store.insertSignIn(
            key: Self.key(id), TeamStore.SignIn(tokenID: tokenID, startedAt: time, seenAt: time), startedBefore: time - WebSessions.lifetime,
            seenBefore: time - WebSessions.idle, capacity: capacity)
        return id
    }

    func tokenID(of id: String, refreshing: Bool) async throws -> String? {
        guard WebSessions.isWellFormed(id), let signIn = try await store.signIn(key: Self.key(id)) else { return nil }
        let time = now()
        guard !WebSessions.isOver(started: signIn.startedAt, seen: signIn.seenAt, at: time) else {
            try await store.endSignIn(key: Self.key(id))
            return nil
        }
        if refreshing, time - signIn.seenAt >= Self.touchInterval { try await store.touchSignIn(key: Self.key(id), at: time) }
        return signIn.tokenID
    }

    func end(_ id: String) async throws {
        guard WebSessions.isWellFormed(id) else { return }
        try await store.endSignIn(key: Self.key(id))
    }

    private static func key(_ id: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(id.utf8)))
    }
}
#endif
