import Dispatch
import Foundation
import RewindCore
import RewindLog

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The collector's sessions page over a store of ``pageSessions`` sessions (issue 51): the
/// first page and one halfway down, each a `GET` of the page as a signed-in browser sends it,
/// and the API's page halfway down (`?limit=50`), beside `GET /v1/sessions`, which lists
/// every session, of the same run. In front of a log,
/// and of a team store when a PostgreSQL is given (as the `store` group finds one).
extension BenchmarkSuite {
    var pageSessions: Int { quick ? 5_000 : 100_000 }
    var pageRuns: Int { quick ? 5 : 21 }

    enum BenchTap: String, Codable, Equatable, Sendable, DescribedAction {
        case tap
    }

    func measureSessionsPage(into result: inout BenchmarkResult, progress: (String) -> Void) async throws {
        guard let rewind = serversBuild(for: "sessions", figures: "the sessions page's", notes: &result.notes) else { return }
        progress("a log of \(pageSessions) sessions, and the collector's sessions page in front of it")
        let log = path("sessions-page.rewind")
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let sink = try SQLiteSink(path: log)
        for index in 0..<pageSessions {
            let at = start.addingTimeInterval(Double(index))
            let recorder = Recorder<Int, BenchTap>(
                sink: sink,
                session: SessionDescriptor(
                    name: "session-\(index)", flow: index % 2 == 0 ? "even" : "odd", now: { at }, id: UUID(),
                    metadata: SessionMetadata(app: "bench", appVersion: "1.\(index % 10)", origin: .device)))
            recorder.start(initialState: 0)
            recorder.record(.tap, state: 1, step: 1)
            recorder.close()
        }
        try sink.close()
        // Halfway down, newest first: the session the middle page starts after.
        let sessions = try LogReader(path: log).sessions()
        let middle = try middleCursor(of: sessions.map { (started: $0.startedAt.timeIntervalSince1970, id: $0.id) })
        try await timePages(rewind: rewind, store: log, tokens: path("sessions-page.tokens"), middle: middle, into: &result, as: ("", "log"))

        try await measureSessionsPageInTeamStore(into: &result, rewind: rewind)
    }

    /// The same over PostgreSQL: the sessions' rows made by `generate_series` (a page reads
    /// rows of `rewind_session` alone), the store made and migrated by `rewind sessions`.
    private func measureSessionsPageInTeamStore(into result: inout BenchmarkResult, rewind: String) async throws {
        guard let database = try BenchDatabase.make(for: "sessions", rewind: rewind, notes: &result.notes) else { return }
        defer { database.drop() }
        let store = database.url
        func sql(_ text: String) throws { try database.sql(text) }
        try sql(
            """
            INSERT INTO rewind_session (uuid, name, flow, started_at, format_version, schema_version, initial_state, initial_digest,
                redacted_paths, app, app_version, origin, last_step, event_count)
            SELECT md5(i::text)::uuid, 'session-' || i, CASE WHEN i % 2 = 0 THEN 'even' ELSE 'odd' END, 1800000000 + i, 6, 1, '0', 0,
                '[]', 'bench', '1.' || (i % 10), 'device', 1, 1
            FROM generate_series(0, \(pageSessions - 1)) AS i;
            ANALYZE rewind_session
            """)
        let rows = try ChildProcess.output(
            database.psql, ["-X", "-w", "-A", "-t", "-F", " ", store, "-c", "SELECT started_at, uuid FROM rewind_session ORDER BY started_at, uuid"])
        let listed = rows.split(separator: "\n").compactMap { line -> (started: Double, id: UUID?)? in
            let parts = line.split(separator: " ")
            guard parts.count == 2, let started = Double(parts[0]) else { return nil }
            return (started, UUID(uuidString: String(parts[1])))
        }
        let middle = try middleCursor(of: listed)
        try await timePages(
            rewind: rewind, store: store, tokens: path("sessions-page-pg.tokens"), middle: middle, into: &result, as: ("_pg", "PostgreSQL"))
    }

    /// This `rewind`'s path when it was built with the `Servers` trait; else nil, with a note
    /// that `group`'s figures were left out. A build without the trait has no collector: it
    /// answers `serve` with exit 69.
    func serversBuild(for group: String, figures: String, notes: inout [String]) -> String? {
        let rewind = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        guard (try? ChildProcess.run(rewind, ["serve", "token", "list", "--store", path("probe.rewind")])) != nil else {
            notes.append("\(group): this rewind was built without the Servers trait; \(figures) figures left out")
            return nil
        }
        return rewind
    }

    /// The cursor of the session halfway down `sessions` (in any order), newest first.
    private func middleCursor(of sessions: [(started: Double, id: UUID?)]) throws -> String {
        let newestFirst = sessions.compactMap { session in session.id.map { (session.started, $0) } }.sorted { a, b in
            a.0 != b.0 ? a.0 > b.0 : a.1.uuidString > b.1.uuidString
        }
        guard newestFirst.count == pageSessions else { throw BenchmarkError("the store holds \(newestFirst.count) of \(pageSessions) sessions") }
        let (started, id) = newestFirst[pageSessions / 2]
        return "\(started)_\(id.uuidString)"
    }

    /// The p50 times of the first page, the page after `middle`, and the whole list, in turn
    /// `pageRuns` times, from a collector on `store` signed in with a read token; their keys
    /// end with `suffix`, their labels name the store `kind`.
    private func timePages(
        rewind: String, store: String, tokens: String, middle: String, into result: inout BenchmarkResult, as names: (suffix: String, kind: String)
    ) async throws {
        let collector = try BenchCollector(rewind: rewind, store: store, tokens: tokens, read: true)
        defer { collector.stop() }
        let client = PageClient(base: collector.url)
        let cookie = try await client.signIn(collector.token)
        var first: [Double] = [], deep: [Double] = [], api: [Double] = [], all: [Double] = []
        for _ in 0..<pageRuns {
            first.append(try await client.timed("/", cookie: cookie, expecting: "session-\(pageSessions - 1)"))
            deep.append(try await client.timed("/?after=\(middle)", cookie: cookie, expecting: "<tr data-session="))
            api.append(try await client.timed("/v1/sessions?limit=50&after=\(middle)", token: collector.token, expecting: "\"session-"))
            all.append(try await client.timed("/v1/sessions", token: collector.token, expecting: "session-0\""))
        }
        let (suffix, label) = (names.suffix, "\(pageSessions) sessions in \(names.kind == "log" ? "a log" : names.kind)")
        let (page, halfway, whole) = (median(first), median(deep), median(all))
        result.add("sessions_page_first\(suffix)_ms", page, "sessions page, the newest 50 of \(label), p50 (ms)")
        result.add("sessions_page_deep\(suffix)_ms", halfway, "sessions page, 50 halfway down \(label), p50 (ms)")
        result.add("sessions_api_deep\(suffix)_ms", median(api), "GET /v1/sessions?limit=50, halfway down \(label), p50 (ms)")
        result.add("sessions_list_all\(suffix)_ms", whole, "GET /v1/sessions, every one of \(label), p50 (ms)", baseline: "the whole list")
        result.add(
            "ratio_sessions_page_deep_first\(suffix)", halfway / page, "ratio: a page halfway down / the first, \(names.kind) (×)", atMost: 2)
        result.add("ratio_sessions_page_list\(suffix)", halfway / whole, "ratio: a page halfway down / the whole list, \(names.kind) (×)")
    }
}

/// A browser's requests to the sessions page, one at a time: no cookie kept, no redirect
/// followed, each answer read whole.
private final class PageClient: NSObject, URLSessionTaskDelegate, Sendable {
    let base: String
    private let session: URLSession

    init(base: String) {
        self.base = base
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func signIn(_ token: String) async throws -> String {
        var request = URLRequest(url: URL(string: base + "/signin")!)
        request.httpMethod = "POST"
        request.setValue(base, forHTTPHeaderField: "Origin")
        request.httpBody = Data("token=\(token)".utf8)
        let once = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: nil)
        defer { once.finishTasksAndInvalidate() }
        let (_, response) = try await send(request, on: once)
        guard let cookie = response.value(forHTTPHeaderField: "Set-Cookie")?.split(separator: ";").first else {
            throw BenchmarkError("the collector set no cookie at sign-in (HTTP \(response.statusCode))")
        }
        return String(cookie)
    }

    /// Milliseconds from sending `path` to its whole answer, which must hold `expecting`.
    func timed(_ path: String, cookie: String? = nil, token: String? = nil, expecting: String) async throws -> Double {
        var request = URLRequest(url: URL(string: base + path)!)
        if let cookie { request.setValue(cookie, forHTTPHeaderField: "Cookie") }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let begin = DispatchTime.now().uptimeNanoseconds
        let (data, response) = try await send(request, on: session)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e6
        guard response.statusCode == 200, String(decoding: data, as: UTF8.self).contains(expecting) else {
            throw BenchmarkError("GET \(path) answered HTTP \(response.statusCode) without \(expecting)")
        }
        return elapsed
    }

    private func send(_ request: URLRequest, on session: URLSession) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw BenchmarkError("\(request.url?.path ?? "") got no HTTP answer") }
        return (data, http)
    }
}
