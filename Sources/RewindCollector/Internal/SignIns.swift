#if Servers
import Foundation

/// Where a collector keeps the sign-ins of its sessions page: in its memory (``WebSessions``,
/// a collector on a log, which has one collector), or in its team store
/// (``StoredSignIns``), which every collector on the store shares. Both follow the rules of
/// ``WebSessions`` (lifetime, idle time, capacity) and keep a cookie's SHA-256, never the
/// cookie.
protocol SignIns: Sendable {
    /// Signs in with the token `tokenID`: the cookie's value.
    func begin(tokenID: String) async throws -> String
    /// The token id the cookie `id` signed in with, while its sign-in lasts; `refreshing`
    /// counts the look as a use of the sign-in (a page's request, not the access log's look).
    func tokenID(of id: String, refreshing: Bool) async throws -> String?
    /// Ends the sign-in of the cookie `id`.
    func end(_ id: String) async throws
}
#endif
