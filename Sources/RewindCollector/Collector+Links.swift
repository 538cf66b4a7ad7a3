#if Servers
import Foundation
import Hummingbird
import HummingbirdCore
import RewindUpload

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Collector {
    /// `GET /s/{id}?expires=…&key=…&sig=…`: a share link, the report without a token; a
    /// refused one gets a page that says why (403).
    func shared(_ request: Request, _ context: CollectorRequestContext, links: ShareLinks, scheme: String, _ guardian: RequestGuard) async throws -> Response {
        let id = try context.sessionID()
        var parameters: [String: String] = [:]
        for name in ["expires", "key", "sig"] {
            if let value = request.uri.queryParameters.get(name) { parameters[name] = String(value.prefix(64)) }
        }
        if let refusal = try links.check(session: id, parameters: parameters) {
            return Self.page(status: .forbidden, title: "This link does not open", text: refusal.description)
        }
        try await guardian.admitLink(id)
        return try await reportPage(id, request: request, scheme: scheme)
    }

    /// `POST /v1/sessions/{id}/link?expires=SECONDS`: a share link of a session the token's app
    /// sent (an upload token), for a bug filed from a device: `{"link", "expires_at"}`.
    func makeLink(_ request: Request, _ context: CollectorRequestContext, links: ShareLinks, scheme: String) async throws -> Response {
        let token = try context.requireToken()
        let id = try context.sessionID()
        var seconds = 7 * 86_400.0
        if let asked = request.uri.queryParameters.get("expires") {
            guard asked.utf8.count <= 9, let value = Int(asked), value >= 1, Double(value) <= ShareLinks.longest else {
                throw CollectorError(status: 400, code: "invalid_expiry", "expires is a number of seconds from 1 to \(Int(ShareLinks.longest))")
            }
            seconds = Double(value)
        }
        guard let held = try await store.session(id), held.summary.metadata?.app == token.app else {
            // Another app's session is as absent as one never sent: a token learns nothing of it.
            throw CollectorError.notFound("no session \(id.uuidString) of this token's app")
        }
        guard let base = URL(string: "\(scheme)://\(Self.host(of: request))"), Self.host(of: request) != "HOST" else {
            throw CollectorError.badRequest("the request names no host to make the link on")
        }
        let expires = Date().addingTimeInterval(seconds)
        let link = try links.create(session: id, expires: expires, base: base)
        return try Self.json(WireLink(link: link.absoluteString, expiresAt: String(Int(expires.timeIntervalSince1970))))
    }
}
#endif
