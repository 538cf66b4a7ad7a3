#if Servers
import Dispatch
import Foundation
import Hummingbird
import HummingbirdCore
import RewindLog
import RewindReport
import RewindUpload

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Collector {
    /// `GET /v1/sessions`: the sessions held, as `rewind sessions --json` lists them, filtered
    /// by the sessions page's query; with `limit` (or `after`) a page of them newest first, and
    /// a `Link` header (`rel="next"`) to the next page while there is one.
    func list(_ request: Request) async throws -> Response {
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
            next = page.next.map { "<\(query.link(after: $0, path: WireRoute.sessions.pattern, limit: size))>; rel=\"next\"" }
        }
        let listed = sessions.map { session in
            WireListedSession(
                session: session.id?.uuidString ?? "", name: session.name, flow: session.flow, steps: session.eventCount,
                startedAt: session.startedAt.timeIntervalSince1970, endedAt: session.endedAt?.timeIntervalSince1970, app: session.metadata?.app)
        }
        var response = try Self.json(listed)
        if let next { response.headers[.init("Link")!] = next }
        return response
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
        let path = readable.path
        let page = try await Self.offThePool { try ReportWriter(path: path).page(session: id.uuidString) }
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        // The page is self-contained: its own script and style, nothing fetched.
        headers[.contentSecurityPolicy] = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"
        headers[.init("X-Content-Type-Options")!] = "nosniff"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: page)))
    }

    /// `GET /sessions/{id}/log`: the session alone, as a `.rewind` log, sent from a file.
    func log(_ context: CollectorRequestContext) async throws -> Response {
        let id = try context.sessionID()
        let inflated = try await held(id)
        guard inflated <= limits.logBytes else {
            throw CollectorError(
                status: 413, code: "too_large",
                "session \(id.uuidString) holds \(inflated) bytes, more than the \(limits.logBytes) this collector sends: ask its operator for it",
                command: "rewind pull STORE --session \(id.uuidString) -o \(id.uuidString).rewind")
        }
        let readable = try await store.readable(SessionSelection(.one(id.uuidString)))
        defer { readable.discard() }
        let path = readable.path
        let (handle, size) = try await Self.offThePool { () throws -> (FileHandle, UInt64) in
            let reader = try LogReader(path: path)
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
            return (handle, size)
        }
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
    func held(_ id: UUID) async throws -> Int {
        guard let held = try await store.session(id) else { throw CollectorError.notFound("no session \(id.uuidString)") }
        return held.inflatedBytes
    }

    /// SQLite's reads and writes of a session's copy, and a report built from it, block: they
    /// run on this queue, not on the threads of Swift's concurrency pool, which serve every
    /// other request (as `LogFileStore` writes a log). Concurrent: each request works
    /// on files of its own.
    private static let files = DispatchQueue(label: "rewind.collector-files", attributes: .concurrent)

    /// `body`'s result, run on ``files``.
    static func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            files.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
#endif
