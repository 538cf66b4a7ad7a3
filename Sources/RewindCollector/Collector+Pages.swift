#if Servers
import Foundation
import Hummingbird
import HummingbirdCore
import RewindCore
import RewindLog
import RewindTeamStore
import RewindUpload

/// The collector's pages for people in a browser (docs/collector.md, "The sessions page"):
/// `GET /` lists the sessions behind a sign-in with a read token, kept in a cookie that holds
/// a random id (``WebSessions``), never the token.
///
/// Every request that changes something (sign-in, sign-out, a share link) is a POST that must
/// come from the collector's own origin: its `Origin` names this host (or, without one, its
/// `Sec-Fetch-Site` says `same-origin`). With the cookie's `SameSite=Strict`, that is two
/// locks against another site's form: the browser does not send the cookie, and the
/// collector refuses the request anyway.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Collector {
    /// What the page routes share.
    struct Pages: Sendable {
        let guardian: RequestGuard
        let signIns: any SignIns
        let links: ShareLinks
        let scheme: String

        /// `__Host-` under TLS: a cookie only this host, over HTTPS, on path `/`, may set.
        var cookieName: String { scheme == "https" ? "__Host-rewind" : "rewind_session" }
    }

    func addPages(to group: RouterGroup<CollectorRequestContext>, _ pages: Pages) {
        group.get(.init(WireRoute.home)) { request, _ in try await self.home(request, pages) }
        group.post(.init(WireRoute.signIn)) { request, _ in try await self.signIn(request, pages) }
        group.post(.init(WireRoute.signOut)) { request, _ in try await self.signOut(request, pages) }
        group.post(.init(WireRoute.share)) { request, context in try await self.share(request, context, pages) }
        group.get(.init(WireRoute.pageScript)) { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/javascript; charset=utf-8"
            headers[.init("X-Content-Type-Options")!] = "nosniff"
            headers[.cacheControl] = "no-cache"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: SessionsPage.script)))
        }
    }

    /// Where the page's sign-ins are kept: in the team store the collector is in front of,
    /// which every collector on it shares (docs/collector.md, "Running several"), else in
    /// memory (a log has one collector).
    func signIns() async throws -> any SignIns {
        guard let team = store as? TeamStore else { return WebSessions() }
        return try await StoredSignIns.prepared(in: team)
    }

    /// The token a request's cookie signed in with, and the cookie; nil without a valid one.
    func signedIn(_ request: Request, _ pages: Pages) async throws -> (token: CollectorToken, cookie: String)? {
        guard let cookie = request.cookies[pages.cookieName]?.value, cookie.utf8.count <= 64,
            let tokenID = try await pages.signIns.tokenID(of: cookie, refreshing: true)
        else { return nil }
        do {
            return (try await pages.guardian.signedIn(tokenID), cookie)
        } catch let error where error.status == 401 {
            // The token was revoked since: its sign-ins end with it.
            try await pages.signIns.end(cookie)
            return nil
        }
    }

    /// `GET /`: the sessions page, or the sign-in form.
    private func home(_ request: Request, _ pages: Pages) async throws -> Response {
        guard let (token, _) = try await signedIn(request, pages) else {
            let stale = request.cookies[pages.cookieName] != nil
            return Self.html(SessionsPage.signIn(), clearing: stale ? pages : nil)
        }
        let query: SessionsPage.Query
        let filter: SessionFilter
        let cursor: SessionPage.Cursor?
        do {
            query = try SessionsPage.Query(items: Self.formItems(request.uri.query ?? ""))
            filter = try query.filter(now: Date())
            cursor = try query.cursor()
        } catch {
            let shown = (try? SessionsPage.Query(items: Self.formItems(request.uri.query ?? ""))) ?? SessionsPage.Query()
            return Self.html(
                SessionsPage.html(page: nil, query: shown, app: token.app, problem: SessionsPage.Query.problem(error)), status: .badRequest)
        }
        let page = try await store.sessions(matching: filter, after: cursor, limit: SessionsPage.size)
        return Self.html(SessionsPage.html(page: page, query: query, app: token.app))
    }

    /// `POST /signin`: a read token from the form; a cookie and back to `/` when it is one.
    private func signIn(_ request: Request, _ pages: Pages) async throws -> Response {
        guard Self.isSameOrigin(request) else { return Self.crossSite() }
        let body = try await Self.body(of: request, limit: 4_096, seconds: min(limits.bodySeconds, 10))
        let secret = Self.formItems(String(decoding: body, as: UTF8.self)).last { $0.name == "token" }?.value ?? ""
        let token: CollectorToken
        do {
            token = try await pages.guardian.signIn(secret.trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            return Self.html(SessionsPage.signIn(problem: error.message), status: .init(code: error.status))
        }
        let cookie = try await pages.signIns.begin(tokenID: token.id)
        var response = Self.redirect(to: "/")
        response.headers[values: .setCookie].append(Self.cookie(pages, value: cookie, maxAge: Int(WebSessions.lifetime)))
        return response
    }

    /// `POST /signout`: the sign-in ends here and in the browser.
    private func signOut(_ request: Request, _ pages: Pages) async throws -> Response {
        guard Self.isSameOrigin(request) else { return Self.crossSite() }
        if let cookie = request.cookies[pages.cookieName]?.value { try await pages.signIns.end(cookie) }
        var response = Self.redirect(to: "/")
        response.headers[values: .setCookie].append(Self.cookie(pages, value: "", maxAge: 0))
        return response
    }

    /// `POST /sessions/{id}/share`: a share link of the session for a week, `{"link",
    /// "expires_at"}`, for the page's "Copy share link".
    private func share(_ request: Request, _ context: CollectorRequestContext, _ pages: Pages) async throws -> Response {
        guard Self.isSameOrigin(request) else {
            throw CollectorError.forbidden("a share link is made from the sessions page of this collector, not from another site")
        }
        guard try await signedIn(request, pages) != nil else {
            throw CollectorError(status: 401, code: "unauthorized", "sign in on the sessions page first")
        }
        let id = try context.sessionID()
        guard try await store.session(id) != nil else { throw CollectorError.notFound("no session \(id.uuidString)") }
        guard let base = URL(string: "\(pages.scheme)://\(Self.host(of: request))"), Self.host(of: request) != "HOST" else {
            throw CollectorError.badRequest("the request names no host to make the link on")
        }
        let expires = Date().addingTimeInterval(7 * 86_400)
        let link = try pages.links.create(session: id, expires: expires, base: base)
        return try Self.json(WireLink(link: link.absoluteString, expiresAt: String(Int(expires.timeIntervalSince1970))))
    }

    /// `GET /sessions/{id}/report` without a token, from a browser: the cookie instead; without a
    /// sign-in, a page that says where to sign in to a browser (one that asks for HTML), the
    /// protocol's 401 to any other client.
    func reportForPage(_ request: Request, _ context: CollectorRequestContext, _ pages: Pages) async throws -> Response {
        guard try await signedIn(request, pages) != nil else {
            guard request.headers[.accept]?.contains("text/html") == true else { throw CollectorError.unauthorized }
            return Self.page(
                status: .unauthorized, title: "Sign in first", text: "Sign in on this collector's sessions page (its address ending in /) to see a session.")
        }
        return try await reportPage(try context.sessionID(), request: request, scheme: pages.scheme)
    }

    /// Whether a POST comes from a page of this collector: its `Origin` names the host the
    /// request was sent to (the scheme is not compared: behind a proxy that ends TLS, the
    /// collector hears HTTP for a page the browser loaded over HTTPS); without an `Origin`,
    /// its `Sec-Fetch-Site` says `same-origin`; with neither, it is refused.
    static func isSameOrigin(_ request: Request) -> Bool {
        if let origin = request.headers[.origin] {
            guard let separator = origin.range(of: "://"), let host = request.head.authority, !host.isEmpty else { return false }
            return origin[separator.upperBound...].lowercased() == host.lowercased()
        }
        return request.headers[.init("Sec-Fetch-Site")!] == "same-origin"
    }

    private static func crossSite() -> Response {
        page(status: .forbidden, title: "Refused", text: "This form was sent from another site. Use the collector's own page.")
    }

    /// `name=value&…` of a query or a form, `+` a space, percent-decoded; at most 64 items.
    static func formItems(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&").prefix(64).map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in
                let spaced = part.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    private static func cookie(_ pages: Pages, value: String, maxAge: Int) -> String {
        "\(pages.cookieName)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Strict" + (pages.scheme == "https" ? "; Secure" : "")
    }

    private static func redirect(to location: String) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        headers[.cacheControl] = "no-store"
        return Response(status: .seeOther, headers: headers)
    }

    /// A page of the collector's own: its script from the collector alone, no frame around
    /// it, its address sent to no other site. (`no-referrer` would be stricter, but under it
    /// Chromium sends a form's POST with `Origin: null`, which the origin check refuses.)
    private static func html(_ page: String, status: HTTPResponse.Status = .ok, clearing pages: Pages? = nil) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.contentSecurityPolicy] =
            "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        headers[.init("X-Content-Type-Options")!] = "nosniff"
        headers[.init("X-Frame-Options")!] = "DENY"
        headers[.init("Referrer-Policy")!] = "same-origin"
        headers[.cacheControl] = "no-store"
        if let pages { headers[values: .setCookie].append(cookie(pages, value: "", maxAge: 0)) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
    }
}
#endif
