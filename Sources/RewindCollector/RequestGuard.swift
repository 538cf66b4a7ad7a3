#if Servers
import Foundation

/// What every request passes before it touches the store: its token (read from the token
/// file, again whenever the file changes, so `token create` and `token revoke` apply to a
/// running collector), the token's rate, and how many sessions it holds open.
actor RequestGuard {
    private let tokens: CollectorTokens
    private let limits: Collector.Limits
    private var known: [CollectorToken] = []
    private var stamp: [String]?
    private var buckets: [String: (level: Double, at: UInt64)] = [:]
    /// Sessions each token began that have not ended, with when each last had an upload
    /// (``now``'s nanoseconds): one without an upload for `openSessionSeconds` is no longer open.
    private var open: [String: [UUID: UInt64]] = [:]
    /// Uploads being received or stored now.
    private var uploading = 0
    /// The clock, in nanoseconds of uptime; a test's own.
    private let now: @Sendable () -> UInt64

    init(tokens: CollectorTokens, limits: Collector.Limits, now: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }) {
        self.tokens = tokens
        self.limits = limits
        self.now = now
    }

    /// The token `authorization` carries, when it is valid (any scope).
    func authenticate(_ authorization: String?) throws(CollectorError) -> CollectorToken {
        try reloadIfChanged()
        guard let authorization, authorization.hasPrefix("Bearer "),
            let token = CollectorTokens.verify(String(authorization.dropFirst(7)), among: known)
        else { throw CollectorError.unauthorized }
        return token
    }

    /// The token `authorization` carries when it is valid, of `scope`, and within its rate.
    func admit(_ authorization: String?, scope: CollectorToken.Scope) throws(CollectorError) -> CollectorToken {
        let token = try authenticate(authorization)
        guard token.scope == scope else {
            throw CollectorError.forbidden("this token may \(token.scope == .read ? "read" : "upload") only; this asks for a \(scope.rawValue) token")
        }
        try take(token.id, "for this token")
        return token
    }

    /// The read token whose secret a sign-in form sent. Every try, good or bad, takes from one
    /// bucket for the whole collector: a token's secret has 256 bits, but a form that answers
    /// without limit would still be a way to spend the server's time.
    func signIn(_ presented: String) throws(CollectorError) -> CollectorToken {
        try reloadIfChanged()
        try take("sign-in", "to sign in")
        guard let token = CollectorTokens.verify(presented, among: known) else {
            throw CollectorError(status: 401, code: "unauthorized", "That is not a token of this collector, or it was revoked.")
        }
        guard token.scope == .read else {
            throw CollectorError.forbidden("That is an upload token, which an app carries; sign in with a read token.")
        }
        return token
    }

    /// The read token `id` a signed-in page request stands for, while it is not revoked, within
    /// the token's rate: revoking the token ends every sign-in made with it.
    func signedIn(_ id: String) throws(CollectorError) -> CollectorToken {
        try reloadIfChanged()
        guard let token = known.first(where: { $0.id == id && $0.revokedAt == nil && $0.scope == .read }) else {
            throw CollectorError.unauthorized
        }
        try take(token.id, "for this token")
        return token
    }

    /// A request of a share link of `session`, within the rate a token has: the link is valid
    /// (only a valid one gets here), but anyone who has it may ask as often as they like, and
    /// each answer builds a report.
    func admitLink(_ session: UUID) throws(CollectorError) {
        try take("link-" + session.uuidString, "for this session's links")
    }

    /// Takes a request from the bucket `key`: `burst` requests, refilled at `requestsPerSecond`.
    private func take(_ key: String, _ whose: String) throws(CollectorError) {
        let now = self.now()
        var bucket = buckets[key] ?? (Double(limits.burst), now)
        let elapsed = Double(now - bucket.at) / 1e9
        bucket.level = min(Double(limits.burst), bucket.level + elapsed * limits.requestsPerSecond)
        bucket.at = now
        guard bucket.level >= 1 else {
            buckets[key] = bucket
            let wait = Int(((1 - bucket.level) / limits.requestsPerSecond).rounded(.up))
            throw CollectorError(
                status: 429, code: "rate_limited", "more than \(Int(limits.requestsPerSecond)) requests a second \(whose)", retryAfter: max(1, wait))
        }
        bucket.level -= 1
        buckets[key] = bucket
    }

    /// Refuses a new session past the token's limit of open ones; `isHeld` (asked only at the
    /// limit) says whether the store holds the session already, as after a restart.
    func mayBegin(_ session: UUID, token: CollectorToken, isHeld: @Sendable () async throws -> Bool) async throws {
        var open = self.open[token.id] ?? [:]
        guard open[session] == nil, open.count >= limits.openSessionsPerToken else { return }
        // At the limit: let go of the sessions left without an upload for too long.
        let horizon = UInt64(max(0, min(limits.openSessionSeconds, 1e9)) * 1e9)
        let now = self.now()
        open = open.filter { now &- $0.value < horizon }
        self.open[token.id] = open
        guard open.count >= limits.openSessionsPerToken else { return }
        guard try await !isHeld() else { return }
        throw CollectorError(
            status: 429, code: "too_many_open_sessions",
            "this token has \(limits.openSessionsPerToken) sessions open; end one (upload its end) before beginning another", retryAfter: 60)
    }

    /// Takes a place among the uploads in flight; false when all are taken.
    func beginUpload() -> Bool {
        guard uploading < limits.uploadsInFlight else { return false }
        uploading += 1
        return true
    }

    /// Gives back the place ``beginUpload()`` took.
    func endUpload() {
        uploading -= 1
    }

    /// Notes what an upload left: a session begun, or ended.
    func note(_ session: UUID, token: CollectorToken, ended: Bool) {
        if ended {
            open[token.id]?[session] = nil
        } else {
            open[token.id, default: [:]][session] = now()
        }
    }

    private func reloadIfChanged() throws(CollectorError) {
        let attributes = try? FileManager.default.attributesOfItem(atPath: tokens.path)
        var stamp: [String] = []
        for key: FileAttributeKey in [.modificationDate, .size, .systemFileNumber] {
            stamp.append(attributes?[key].map { "\($0)" } ?? "")
        }
        guard stamp != self.stamp else { return }
        known = try tokens.load()
        self.stamp = stamp
    }
}
#endif
