#if Servers
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOSSL
import RewindLog
import RewindRendering
import RewindReport
import RewindTeamStore
import RewindUpload

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Collector {
    /// Serves on `host`:`port` (0: a free port) until the task is cancelled or the process
    /// gets SIGTERM or SIGINT; `onListening` gets the port once it accepts connections.
    ///
    /// - Parameter tls: PEM files of a certificate chain and its key; plain HTTP when nil (a
    ///   reverse proxy in front, docs/collector.md).
    public func run(
        host: String, port: Int, tls: (certificate: String, key: String)? = nil, accessLog: AccessLog? = nil,
        onListening: @escaping @Sendable (Int) -> Void
    ) async throws {
        let router = Router(context: BasicRequestContext.self)
        let guardian = RequestGuard(tokens: tokens, limits: limits)
        let scheme = tls == nil ? "http" : "https"
        // A share link: its signature instead of a token (ShareLinks).
        let links = ShareLinks(tokenFile: tokens.path)
        let pages = Pages(guardian: guardian, signIns: try await signIns(), links: links, scheme: scheme)
        // Outermost, so that it sees every answer as the client gets it.
        if let accessLog { router.add(middleware: AccessLogging(log: accessLog, signIns: (pages.signIns, pages.cookieName))) }
        router.add(middleware: ErrorBodies())
        // Every request shows a valid token first, a path no route takes too: without one, 401.
        // The pages for a browser check their cookie instead (Collector+Pages).
        router.add(middleware: Authenticated(guardian: guardian))
        router.post("/v1/sessions/:id/blocks") { request, _ in try await self.upload(request, guardian) }
        router.get("/v1/sessions/:id") { request, _ in try await self.progress(request, guardian) }
        router.get("/v1/sessions") { request, _ in try await self.list(request, guardian) }
        router.post("/v1/sessions/:id/verdict") { request, _ in try await self.verdict(request, guardian) }
        addPages(to: router, pages)
        router.get("/sessions/:id/report") { request, _ in
            if let page = try await self.reportForPage(request, pages) { return page }
            return try await self.report(request, scheme: scheme, guardian)
        }
        router.get("/sessions/:id/log") { request, _ in try await self.log(request, guardian) }
        router.get("/s/:id") { request, _ in try await self.shared(request, links: links, scheme: scheme, guardian) }
        router.post("/v1/sessions/:id/link") { request, _ in try await self.makeLink(request, links: links, scheme: scheme, guardian) }
        // Without an idle timeout a client that sent half a header held its connection (and a
        // file descriptor) for ever: 300 of them were all open 65 s later.
        let idle = Int64(max(0.001, min(limits.idleSeconds, 86_400)) * 1e9)
        var server: HTTPServerBuilder = .http1(configuration: .init(idleTimeout: .nanoseconds(idle)))
        if let tls {
            do {
                let chain = try NIOSSLCertificate.fromPEMFile(tls.certificate)
                let key = try NIOSSLPrivateKey(file: tls.key, format: .pem)
                server = try .tls(
                    .http1(configuration: .init(idleTimeout: .nanoseconds(idle))),
                    tlsConfiguration: .makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key)))
            } catch {
                throw CollectorError(status: 500, code: "tls", "cannot read the TLS certificate \(tls.certificate) or its key \(tls.key): \(error)")
            }
        }
        var logger = Logger(label: "rewind.collector")
        logger.logLevel = .critical
        let app = Application(
            router: router, server: server, configuration: .init(address: .hostname(host, port: port), serverName: "rewind"),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? port) }, logger: logger)
        try await app.runService()
    }

    /// `POST /v1/sessions/{id}/blocks`: an upload (docs/collector.md).
    private func upload(_ request: Request, _ guardian: RequestGuard) async throws -> Response {
        let token = try await guardian.admit(request.headers[.authorization], scope: .upload)
        let id = try Self.sessionID(request)
        // Each upload in flight holds its body (up to `--max-body`): at most `uploadsInFlight`
        // at once, so that the memory they hold is bounded.
        guard await guardian.beginUpload() else {
            throw CollectorError(
                status: 503, code: "busy", "the collector takes \(limits.uploadsInFlight) uploads at once; try again", retryAfter: 1)
        }
        do {
            let response = try await receiving(request, id: id, token: token, guardian)
            await guardian.endUpload()
            return response
        } catch {
            await guardian.endUpload()
            throw error
        }
    }

    /// The body of an upload, read within `bodySeconds` of its start: a client that sends a
    /// few bytes and then nothing holds a connection (the idle timeout does not count while a
    /// request is under way) and a place among the uploads in flight.
    private func body(of request: Request) async throws -> [UInt8] {
        try await Self.body(of: request, limit: limits.upload.bodyBytes, seconds: limits.bodySeconds)
    }

    /// A request's body, at most `limit` bytes (413 past it), arrived within `seconds` of the
    /// start (408 past it); a body cut short is 400 `incomplete_body`.
    static func body(of request: Request, limit: Int, seconds: Double) async throws -> [UInt8] {
        let seconds = max(0.001, min(seconds, 86_400))
        return try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
            group.addTask {
                var body: [UInt8] = []
                do {
                    for try await buffer in request.body {
                        guard body.count + buffer.readableBytes <= limit else {
                            throw CollectorError(status: 413, code: "too_large", "the body is larger than \(limit) bytes")
                        }
                        body.append(contentsOf: buffer.readableBytesView)
                    }
                } catch let error as CollectorError {
                    throw error
                } catch {
                    // The connection closed, or went idle, before the body's end: the client's
                    // doing (a device losing its network), not the server's failure.
                    throw CollectorError(status: 400, code: "incomplete_body", "the body ended before its length: the connection closed or stalled")
                }
                return body
            }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                return nil
            }
            defer { group.cancelAll() }
            guard let body = try await group.next() ?? nil else {
                throw CollectorError(status: 408, code: "body_timeout", "the body did not arrive within \(Self.seconds(seconds)) s")
            }
            return body
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    private func receiving(_ request: Request, id: UUID, token: CollectorToken, _ guardian: RequestGuard) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limits.upload.bodyBytes {
            throw CollectorError(status: 413, code: "too_large", "the body is larger than \(limits.upload.bodyBytes) bytes")
        }
        if let encoding = request.headers[.contentEncoding], encoding != "identity" {
            throw CollectorError(status: 415, code: "unsupported_encoding", "bodies are sent as they are (blocks are compressed already), not \(encoding)")
        }
        let body = try await body(of: request)
        var upload: StoredSessionCopy
        do {
            upload = try StoredSessionCopy(uploadBody: body, limits: limits.upload)
            if verifiesBlocks { try await upload.checkBlocks() }
        } catch {
            throw Self.refusal(error)
        }
        guard upload.id == id else {
            throw CollectorError(
                status: 422, code: "invalid_value", "the body's session (\(upload.id.uuidString)) is not the one of the path (\(id.uuidString))")
        }
        // A token's app is the app of every session it writes, whatever the body says: the
        // store refuses one it holds as another app's (403 `other_app`).
        upload.metadata.app = token.app
        upload.summary.metadata?.app = token.app
        let destination = self.destination
        try await guardian.mayBegin(id, token: token) { try await destination.progress(of: id) != nil }
        let received: ReceivedBlocks
        do {
            received = try await destination.receive(upload)
        } catch let error as UploadError {
            throw Self.refusal(error)
        } catch {
            throw CollectorError(status: 503, code: "store_unavailable", "the store cannot take it now: \(error)", retryAfter: 5)
        }
        await guardian.note(id, token: token, ended: received.ended)
        return try Self.json(Progress(session: id, received: received))
    }

    /// `GET /v1/sessions/{id}`: how far an upload of the session got.
    private func progress(_ request: Request, _ guardian: RequestGuard) async throws -> Response {
        _ = try await guardian.admit(request.headers[.authorization], scope: .upload)
        let id = try Self.sessionID(request)
        let held: ReceivedBlocks?
        do {
            held = try await destination.progress(of: id)
        } catch {
            throw CollectorError(status: 503, code: "store_unavailable", "the store cannot answer now: \(error)", retryAfter: 5)
        }
        guard let held else { throw CollectorError.notFound("no session \(id.uuidString)") }
        return try Self.json(Progress(session: id, received: held))
    }

    /// `GET /v1/sessions`: the sessions held, as `rewind sessions --json` lists them, filtered
    /// by the sessions page's query; with `limit` (or `after`) a page of them newest first, and
    /// a `Link` header (`rel="next"`) to the next page while there is one.
    private func list(_ request: Request, _ guardian: RequestGuard) async throws -> Response {
        _ = try await guardian.admit(request.headers[.authorization], scope: .read)
        let query: SessionsPage.Query, filter: SessionFilter, cursor: SessionPage.Cursor?, limit: Int?
        do {
            query = try SessionsPage.Query(items: Self.formItems(request.uri.query ?? ""))
            filter = try query.filter(now: Date())
            cursor = try query.cursor()
            limit = try query.pageSize()
        } catch {
            throw CollectorError.badRequest(SessionsPage.Query.problem(error))
        }
        let sessions: [SessionSummary]
        var next: String?
        if limit == nil, cursor == nil {
            sessions = try await store.sessions(matching: filter)
        } else {
            let size = limit ?? SessionPage.maximumSize
            let page = try await store.sessions(matching: filter, after: cursor, limit: size)
            sessions = page.sessions
            next = page.next.map { "<\(query.link(after: $0, path: "/v1/sessions", limit: size))>; rel=\"next\"" }
        }
        let listed = sessions.map { session in
            Listed(
                session: session.id?.uuidString ?? "", name: session.name, flow: session.flow, steps: session.eventCount,
                startedAt: session.startedAt.timeIntervalSince1970, endedAt: session.endedAt?.timeIntervalSince1970, app: session.metadata?.app)
        }
        var response = try Self.json(listed)
        if let next { response.headers[.init("Link")!] = next }
        return response
    }

    /// `GET /sessions/{id}/report`: the session's HTML inspector.
    private func report(_ request: Request, scheme: String, _ guardian: RequestGuard) async throws -> Response {
        _ = try await guardian.admit(request.headers[.authorization], scope: .read)
        return try await reportPage(try Self.sessionID(request), request: request, scheme: scheme)
    }

    /// `GET /s/{id}?expires=…&key=…&sig=…`: a share link, the report without a token; a
    /// refused one gets a page that says why (403).
    private func shared(_ request: Request, links: ShareLinks, scheme: String, _ guardian: RequestGuard) async throws -> Response {
        let id = try Self.sessionID(request)
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
    private func makeLink(_ request: Request, links: ShareLinks, scheme: String, _ guardian: RequestGuard) async throws -> Response {
        let token = try await guardian.admit(request.headers[.authorization], scope: .upload)
        let id = try Self.sessionID(request)
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
        return try Self.json(["link": link.absoluteString, "expires_at": String(Int(expires.timeIntervalSince1970))])
    }

    /// A page of one paragraph, for a person in a browser: nothing of the request in it.
    static func page(status: HTTPResponse.Status, title: String, text: String) -> Response {
        let escaped = HTMLText.escaped
        let html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>\(escaped(title))</title>
            <meta name="viewport" content="width=device-width"><style>body{font:16px/1.5 system-ui,sans-serif;margin:3em auto;max-width:36em;padding:0 1em}</style>
            </head><body><h1>\(escaped(title))</h1><p id="reason">\(escaped(text))</p></body></html>
            """
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'"
        headers[.init("X-Content-Type-Options")!] = "nosniff"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// Session `id`'s report page, or 413 with the command that makes it elsewhere.
    func reportPage(_ id: UUID, request: Request, scheme: String) async throws -> Response {
        let inflated = try await held(id)
        guard inflated <= limits.reportBytes else {
            // The page holds the session several times over: read on the reader's machine instead.
            let host = Self.host(of: request)
            let file = id.uuidString
            throw CollectorError(
                status: 413, code: "too_large",
                "session \(id.uuidString) holds \(inflated) bytes, more than the \(limits.reportBytes) a report made here may hold: "
                    + "pull it (your read token in REWIND_TOKEN) and make its report on your machine",
                command: "rewind pull \(scheme)://\(host)/sessions/\(id.uuidString) -o \(file).rewind && rewind report \(file).rewind -o \(file).html")
        }
        let readable = try await store.readable(SessionSelection(.one(id.uuidString)))
        defer { readable.discard() }
        let page = try ReportWriter(path: readable.path).page(session: id.uuidString)
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        // The page is self-contained: its own script and style, nothing fetched.
        headers[.contentSecurityPolicy] = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"
        headers[.init("X-Content-Type-Options")!] = "nosniff"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: page)))
    }

    /// `GET /sessions/{id}/log`: the session alone, as a `.rewind` log, sent from a file.
    private func log(_ request: Request, _ guardian: RequestGuard) async throws -> Response {
        _ = try await guardian.admit(request.headers[.authorization], scope: .read)
        let id = try Self.sessionID(request)
        let inflated = try await held(id)
        guard inflated <= limits.logBytes else {
            throw CollectorError(
                status: 413, code: "too_large",
                "session \(id.uuidString) holds \(inflated) bytes, more than the \(limits.logBytes) this collector sends: ask its operator for it",
                command: "rewind pull STORE --session \(id.uuidString) -o \(id.uuidString).rewind")
        }
        let readable = try await store.readable(SessionSelection(.one(id.uuidString)))
        defer { readable.discard() }
        let reader = try LogReader(path: readable.path)
        let copy = try reader.storedCopy(of: try reader.session(id.uuidString))
        let folder = try ReadableSessions.makeCopyFolder("collector")
        // Removed at once: the open handle keeps the file until the body is sent (or the
        // response dropped), and nothing is left behind by a client that goes away.
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/session.rewind"
        let sink = try SQLiteSink(scratchCopyAt: file)
        _ = try sink.insert(copy)
        try sink.close()
        guard let handle = FileHandle(forReadingAtPath: file), let size = try? handle.seekToEnd() else {
            throw CollectorError(status: 500, code: "internal", "cannot read back the session's log")
        }
        try handle.seek(toOffset: 0)
        var headers = HTTPFields()
        headers[.contentType] = "application/vnd.rewind.log"
        headers[.contentDisposition] = "attachment; filename=\"\(id.uuidString).rewind\""
        let body = ResponseBody(contentLength: Int(size)) { writer in
            defer { try? handle.close() }
            // 64 KB at a time: a request holds one chunk of the file, not the file.
            while let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty {
                try await writer.write(ByteBuffer(bytes: chunk))
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// The bytes session `id`'s blocks hold inflated; 404 when the store does not hold it.
    private func held(_ id: UUID) async throws -> Int {
        guard let held = try await store.session(id) else { throw CollectorError.notFound("no session \(id.uuidString)") }
        return held.inflatedBytes
    }

    /// The request's host as the client named it, when it is a host name or address and a port.
    static func host(of request: Request) -> String {
        let named = request.head.authority ?? ""
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]")
        return !named.isEmpty && named.count <= 255 && named.allSatisfy(allowed.contains) ? named : "HOST"
    }

    static func sessionID(_ request: Request) throws(CollectorError) -> UUID {
        // The path's last-but-one or last part: a UUID or nothing; never a path or SQL.
        let parts = request.uri.path.split(separator: "/")
        guard parts.count >= 2 else { throw CollectorError.badRequest("no session id in the path") }
        let candidate = parts[parts.first == "v1" ? 2 : 1]
        guard let id = UUID(uuidString: String(candidate)) else {
            throw CollectorError(status: 400, code: "invalid_id", "a session id is a UUID (got \(String(candidate.prefix(64)).debugDescription))")
        }
        return id
    }

    static func refusal(_ error: UploadError) -> CollectorError {
        let status =
            switch error.kind {
            case .malformed: 400
            case .tooLarge: 413
            case .badChecksum, .invalidValue: 422
            case .outOfOrder, .conflict: 409
            case .otherApp: 403
            }
        return CollectorError(status: status, code: error.kind.rawValue, error.message, storedThrough: error.storedThrough)
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }

    /// An upload's answer: the session, then what the store holds of it (``ReceivedBlocks``'s keys).
    private struct Progress: Encodable {
        var session: UUID
        var received: ReceivedBlocks

        private enum CodingKeys: String, CodingKey { case session }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(session.uuidString, forKey: .session)
            try received.encode(to: encoder)
        }
    }

    private struct Listed: Encodable {
        var session: String
        var name: String?
        var flow: String
        var steps: Int
        var startedAt: Double
        var endedAt: Double?
        var app: String?

        enum CodingKeys: String, CodingKey {
            case session, name, flow, steps
            case startedAt = "started_at"
            case endedAt = "ended_at"
            case app
        }
    }
}

/// Refuses a request without a valid token before any route sees it.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
private struct Authenticated: RouterMiddleware {
    typealias Context = BasicRequestContext
    let guardian: RequestGuard

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // A share link carries its signature instead, checked by its route; a page for a
        // browser without a token, its cookie.
        let path = request.uri.path
        let byCookie = request.headers[.authorization] == nil && Collector.Pages.isPage(path)
        if !path.hasPrefix("/s/") && !byCookie { _ = try await guardian.authenticate(request.headers[.authorization]) }
        return try await next(request, context)
    }
}

/// Every refusal as a JSON body, `{"error": {"code", "message"}}` (docs/collector.md), with
/// `Retry-After` where there is one: the router's own 404s and 405s too. A browser's page load
/// (a GET asking for HTML, without a token) gets the same as a page that says why.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct ErrorBodies: RouterMiddleware {
    typealias Context = BasicRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var refusal: CollectorError
        do {
            return try await next(request, context)
        } catch let error as CollectorError {
            refusal = error
        } catch let error as UploadError {
            refusal = Collector.refusal(error)
        } catch let error as LogError where error.kind == .noSuchSession {
            refusal = CollectorError.notFound("no such session")
        } catch let error as TeamStoreError where error.kind == .noSuchSession {
            refusal = CollectorError.notFound("no such session")
        } catch let error as TeamStoreError {
            // A team store out of reach, or refusing: the store's state, not the client's fault.
            let unavailable = error.kind == .unavailable
            refusal = CollectorError(
                status: unavailable ? 503 : 500, code: unavailable ? "store_unavailable" : "store_failed", error.description,
                retryAfter: unavailable ? 5 : nil)
        } catch let error as LogError {
            // The store's damage, or a store that cannot be read: the server's fault, not the client's.
            refusal = CollectorError(status: 500, code: "store_damaged", error.description)
        } catch let error as any HTTPResponseError {
            refusal = CollectorError(
                status: error.status.code, code: error.status.code == 404 ? "not_found" : "http_\(error.status.code)", error.status.reasonPhrase)
        } catch {
            refusal = CollectorError(status: 500, code: "internal", "\(error)")
        }
        if refusal.status >= 500 {
            // The server's own trouble: its words (a path, a database's URL) go to its log, and
            // the client learns only that it failed and whether to come back.
            ServerLog.failure(request, refusal)
            refusal.message =
                switch refusal.code {
                case "store_unavailable": "the store cannot take or answer requests now; try again later"
                // Said as damage, so that a reader never takes it for a passing failure.
                case "store_damaged": "the store's copy of this is damaged; the server's log says where"
                default: "the server failed to answer this; its log says why"
                }
        }
        if Self.isBrowsing(request) { return Self.page(refusal) }
        var body: [String: Any] = ["code": refusal.code, "message": refusal.message]
        if let storedThrough = refusal.storedThrough { body["stored_through"] = storedThrough }
        if let command = refusal.command { body["command"] = command }
        let data = (try? JSONSerialization.data(withJSONObject: ["error": body], options: [.sortedKeys])) ?? Data()
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        if let retryAfter = refusal.retryAfter { headers[.retryAfter] = String(retryAfter) }
        if refusal.status == 401 { headers[.wwwAuthenticate] = "Bearer" }
        return Response(status: .init(code: refusal.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Whether `request` is a browser's page load (a GET asking for HTML, without a token): it
    /// gets a page that says why, not the API's JSON.
    private static func isBrowsing(_ request: Request) -> Bool {
        request.method == .get && request.headers[.authorization] == nil && request.headers[.accept]?.contains("text/html") == true
    }

    /// The refusal as a page of one paragraph: its message, and its command when it has one.
    private static func page(_ refusal: CollectorError) -> Response {
        let title =
            switch refusal.status {
            case 400: "Not a request this page takes"
            case 401: "Sign in first"
            case 403: "Not allowed"
            case 404: "Not found"
            case 413: "Too large to show here"
            case 500...: "The collector could not answer"
            default: "Refused"
            }
        let text = refusal.message + (refusal.command.map { ". On your machine: \($0)" } ?? "")
        var response = Collector.page(status: .init(code: refusal.status), title: title, text: text)
        if let retryAfter = refusal.retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        if refusal.status == 401 { response.headers[.wwwAuthenticate] = "Bearer" }
        return response
    }
}
#endif
