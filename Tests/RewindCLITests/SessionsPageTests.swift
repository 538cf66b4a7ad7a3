#if Servers
import Foundation
import RewindCore
import RewindLog
import RewindTestSupport
import RewindWebDriver
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The collector's sessions page over HTTP (issue 51): a sign-in with a read token sets a
/// cookie that holds no token; only a POST from the collector's own origin signs in, signs out
/// or makes a link; signing out, or revoking the token, ends it; replay verdicts arrive with
/// a read token, bounded. The browser's side is `SessionsPageBrowserTests`.
@MainActor @Suite(.serialized, .serversBuild) struct SessionsPageTests {
    /// Requests as a browser would send them, but seen one by one: no cookie kept, no
    /// redirect followed.
    final class Client: NSObject, URLSessionTaskDelegate, Sendable {
        let base: String
        init(base: String) { self.base = base }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
            completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }

        func send(
            _ method: String, _ path: String, cookie: String? = nil, origin: String? = "self", form: String? = nil, token: String? = nil,
            json: String? = nil, accept: String? = nil
        ) async throws -> (status: Int, headers: [String: String], body: String) {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpCookieStorage = nil
            configuration.httpShouldSetCookies = false
            configuration.httpCookieAcceptPolicy = .never
            let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
            defer { session.finishTasksAndInvalidate() }
            var request = URLRequest(url: URL(string: base + path)!)
            request.httpMethod = method
            if let cookie { request.setValue(cookie, forHTTPHeaderField: "Cookie") }
            if method == "POST", let origin { request.setValue(origin == "self" ? base : origin, forHTTPHeaderField: "Origin") }
            if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
            if let accept { request.setValue(accept, forHTTPHeaderField: "Accept") }
            if let form {
                request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(form.utf8)
            }
            if let json { request.httpBody = Data(json.utf8) }
            let (data, response) = try await session.data(for: request)
            let http = response as! HTTPURLResponse
            var fields: [String: String] = [:]
            for (name, value) in http.allHeaderFields { fields[String(describing: name).lowercased()] = String(describing: value) }
            return (http.statusCode, fields, String(decoding: data, as: UTF8.self))
        }

        /// Signs in with `token`: the cookie to send back (`rewind_session=…`).
        func signIn(_ token: String) async throws -> String {
            let answer = try await send("POST", "/signin", form: "token=\(token)")
            #expect(answer.status == 303 && answer.headers["location"] == "/", "\(answer)")
            let setCookie = try #require(answer.headers["set-cookie"])
            return String(setCookie.prefix { $0 != ";" })
        }
    }

    /// A collector in front of the demo's log, its sessions, and the folder that holds the log
    /// (removed when the test lets go of it).
    /// With `accessLog`, the server writes its access log to `access.log` in the folder.
    static func demo(accessLog: Bool = false) async throws -> (RunningCollector, [SessionSummary], TemporaryDirectory) {
        let folder = try TemporaryDirectory()
        let store = folder.path("store.rewind")
        #expect(try await TeamStoreBuild.run(["demo", "--output", store]).status == 0)
        let sessions = try LogReader(path: store).sessions()
        return (try await RunningCollector(store: store, extra: accessLog ? ["--access-log", folder.path("access.log")] : []), sessions, folder)
    }

    @Test func aSignInSetsACookieThatHoldsNoTokenAndSignOutEndsIt() async throws {
        let (collector, sessions, folder) = try await Self.demo(accessLog: true)
        let client = Client(base: collector.url)
        defer { withExtendedLifetime(folder) {} }
        let first = try #require(sessions[0].id).uuidString

        let form = try await client.send("GET", "/")
        #expect(form.status == 200 && form.body.contains(#"<form id="sign-in" method="post" action="/signin">"#))
        #expect(form.headers["content-security-policy"]?.contains("script-src 'self'") == true)
        #expect(form.headers["x-frame-options"] == "DENY")

        let answer = try await client.send("POST", "/signin", form: "token=\(collector.read)")
        let setCookie = try #require(answer.headers["set-cookie"])
        let value = String(setCookie.dropFirst("rewind_session=".count).prefix { $0 != ";" })
        #expect(setCookie == "rewind_session=\(value); Path=/; Max-Age=28800; HttpOnly; SameSite=Strict")
        #expect(value.utf8.count == 43 && !collector.read.contains(value))
        let cookie = "rewind_session=\(value)"

        let page = try await client.send("GET", "/", cookie: cookie)
        #expect(page.status == 200 && page.body.contains(#"<tr data-session="\#(first)">"#))
        #expect(page.body.contains("read token of tests") && !page.body.contains(collector.read))
        #expect(page.body.components(separatedBy: "<tr data-session=").count - 1 == sessions.count)
        #expect(try await client.send("GET", "/sessions/\(first)/report", cookie: cookie).status == 200)

        // Signed out: the cookie opens nothing, and the browser is told to drop it.
        let out = try await client.send("POST", "/signout", cookie: cookie)
        #expect(out.status == 303 && out.headers["set-cookie"] == "rewind_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict")
        #expect(try await client.send("GET", "/", cookie: cookie).body.contains(#"id="sign-in""#))
        // A browser is told where to sign in; another client gets the protocol's 401.
        let signInFirst = try await client.send("GET", "/sessions/\(first)/report", cookie: cookie, accept: "text/html,*/*")
        #expect(signInFirst.status == 401 && signInFirst.body.contains("Sign in first"))
        let api = try await client.send("GET", "/sessions/\(first)/report", cookie: cookie)
        #expect(api.status == 401 && RunningCollector.errorCode(Data(api.body.utf8)) == "unauthorized" && api.headers["www-authenticate"] == "Bearer")

        // A revoked token ends the sign-ins made with it.
        let again = try await client.signIn(collector.read)
        #expect(try await client.send("GET", "/", cookie: again).body.contains("<table id=\"sessions\">"))
        let id = String(collector.read.split(separator: "_")[1])
        #expect(try await TeamStoreBuild.run(["serve", "token", "revoke", "--store", collector.store, "--tokens", collector.tokens, id]).status == 0)
        #expect(try await client.send("GET", "/", cookie: again).body.contains(#"id="sign-in""#))

        // The access log names the token a page's request signed in with, as it names an API
        // request's (a revoked one's too, as claimed), and never the cookie.
        let lines = try await collector.accessLog(folder.path("access.log"), lines: 11)
        let shown = lines.map { line in
            let fields = line.split(separator: " ")
            return fields.count == 7 ? "\(fields[1]) \(fields[2]) \(fields[3]) \(fields[6])" : line
        }
        let report = "/sessions/\(first)/report"
        #expect(
            shown == [
                "GET / 200 token=-", "POST /signin 303 token=\(id)", "GET / 200 token=\(id)", "GET \(report) 200 token=\(id)",
                "POST /signout 303 token=\(id)", "GET / 200 token=-", "GET \(report) 401 token=-", "GET \(report) 401 token=-",
                "POST /signin 303 token=\(id)", "GET / 200 token=\(id)", "GET / 200 token=\(id)",
            ], "\(lines)")
        #expect(!lines.joined().contains(value) && !lines.joined().contains(collector.read))
    }

    @Test func onlyAReadTokenSignsInAndOnlyFromTheCollectorsOwnPages() async throws {
        let (collector, sessions, folder) = try await Self.demo()
        let client = Client(base: collector.url)
        defer { withExtendedLifetime(folder) {} }
        let first = try #require(sessions[0].id).uuidString

        let upload = try await client.send("POST", "/signin", form: "token=\(collector.upload)")
        #expect(upload.status == 403 && upload.body.contains("That is an upload token") && upload.headers["set-cookie"] == nil)
        let wrong = try await client.send("POST", "/signin", form: "token=rwt_0123456789abcdef_nope")
        #expect(wrong.status == 401 && wrong.body.contains("That is not a token of this collector"))

        // Another site's form, or a request that names no origin: refused before the token is read.
        for origin in ["http://evil.example", "null", nil] as [String?] {
            let crossSite = try await client.send("POST", "/signin", origin: origin, form: "token=\(collector.read)")
            #expect(crossSite.status == 403 && crossSite.body.contains("sent from another site"), "\(String(describing: origin))")
        }
        let cookie = try await client.signIn(collector.read)
        let link = try await client.send("POST", "/sessions/\(first)/share", cookie: cookie, origin: "http://evil.example")
        #expect(link.status == 403 && RunningCollector.errorCode(Data(link.body.utf8)) == "forbidden")
        let signOut = try await client.send("POST", "/signout", cookie: cookie, origin: "http://evil.example")
        #expect(signOut.status == 403)
        #expect(try await client.send("GET", "/", cookie: cookie).body.contains("<table id=\"sessions\">"))

        // A link from the page: made for the signed-in, opened by anyone who has it.
        #expect(try await client.send("POST", "/sessions/\(first)/share").status == 401)
        let made = try await client.send("POST", "/sessions/\(first)/share", cookie: cookie)
        #expect(made.status == 200, "\(made.body)")
        let shared = try #require(
            (try JSONSerialization.jsonObject(with: Data(made.body.utf8)) as? [String: String])?["link"].flatMap(URL.init(string:)))
        #expect(shared.absoluteString.hasPrefix("\(collector.url)/s/\(first)?expires="))
        #expect(try await client.send("GET", String(shared.absoluteString.dropFirst(collector.url.count))).status == 200)

        // Another collector's cookie, or one made up, opens nothing here.
        let other = try await RunningCollector()
        let otherCookie = try await Client(base: other.url).signIn(other.read)
        for stranger in [otherCookie, "rewind_session=" + String(repeating: "A", count: 43), "rewind_session=" + String(repeating: "A", count: 5_000)] {
            let page = try await client.send("GET", "/", cookie: stranger)
            #expect(page.status == 200 && page.body.contains(#"id="sign-in""#))
            #expect(try await client.send("GET", "/sessions/\(first)/report", cookie: stranger).status == 401)
        }
        // A token is never taken from the query, and the API's routes take no cookie.
        #expect(try await client.send("GET", "/v1/sessions", cookie: cookie).status == 401)
        #expect(try await client.send("GET", "/sessions/\(first)/log", cookie: cookie).status == 401)
    }

    @Test func theQueryIsBoundedAndABadOneSaysWhy() async throws {
        let (collector, _, folder) = try await Self.demo()
        let client = Client(base: collector.url)
        defer { withExtendedLifetime(folder) {} }
        let cookie = try await client.signIn(collector.read)
        let cases: [(String, String)] = [
            ("/?since=yesterday", "invalid since &quot;yesterday&quot;: expected a duration"),
            ("/?after=nowhere", "the page&#39;s place (after) is not one this page links to"),
            ("/?flow=" + String(repeating: "a", count: 257), "the value of flow is longer than 256 bytes"),
            ("/?tag=novalue", "invalid tag &quot;novalue&quot;: expected KEY=VALUE"),
            ("/?version=2%00", "the value of version holds a NUL byte"),
        ]
        for (path, problem) in cases {
            let page = try await client.send("GET", path, cookie: cookie)
            #expect(page.status == 400 && page.body.contains(problem), "\(path): \(page.body)")
        }
        // What the query says is echoed into the form as text, in its attribute.
        let hostile = "\"><script>window.pwned=1</script>"
        let query = hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let page = try await client.send("GET", "/?flow=\(query)", cookie: cookie)
        #expect(page.status == 200 && page.body.contains(#"value="&quot;&gt;&lt;script&gt;window.pwned=1&lt;/script&gt;""#))
        #expect(!page.body.contains("<script>window"))
        #expect(page.body.contains(#"<p id="empty">No sessions match.</p>"#))
        // A long value goes back whole (a cell would cut it), so the form sends it again.
        let long = String(repeating: "a", count: 200)
        #expect(try await client.send("GET", "/?flow=\(long)", cookie: cookie).body.contains(#"name="flow" value="\#(long)""#))
    }

    /// Behind a load balancer, a browser signed in on one collector of a team store is signed
    /// in on every other, and signed out of all at once; a restart signs nobody out.
    @Test(.postgres) func collectorsOnATeamStoreShareTheirSignIns() async throws {
        let database = try FreshStore()
        var first: RunningCollector? = try await RunningCollector(store: database.url)
        let second = try await RunningCollector(besides: try #require(first))
        let cookie = try await Client(base: try #require(first).url).signIn(second.read)
        func signedIn(_ collector: RunningCollector) async throws -> Bool {
            let page = try await Client(base: collector.url).send("GET", "/", cookie: cookie)
            #expect(page.status == 200)
            return page.body.contains("read token of tests") && !page.body.contains(#"id="sign-in""#)
        }
        #expect(try await signedIn(second), "signed in on the first, known on the second")
        first = nil
        let restarted = try await RunningCollector(besides: second)
        #expect(try await signedIn(restarted), "a collector started again knows it")
        #expect(try await Client(base: second.url).send("POST", "/signout", cookie: cookie).status == 303)
        #expect(try await !signedIn(restarted), "signed out on the second, out everywhere")
        #expect(try TestServer.psql("SELECT count(*) FROM rewind_sign_in", database: database.name) == "0\n")
    }

    /// A browser's page load that fails gets a page that says why; any other client the API's
    /// JSON, as before.
    @Test func aRefusedPageLoadIsAPageForABrowser() async throws {
        let (collector, _, folder) = try await Self.demo()
        defer { withExtendedLifetime(folder) {} }
        let client = Client(base: collector.url)
        let cookie = try await client.signIn(collector.read)
        let missing = UUID().uuidString
        let html = "text/html,application/xhtml+xml,*/*;q=0.8"
        let page = try await client.send("GET", "/sessions/\(missing)/report", cookie: cookie, accept: html)
        #expect(page.status == 404 && page.headers["content-type"] == "text/html; charset=utf-8", "\(page)")
        #expect(page.body.contains("<h1>Not found</h1><p id=\"reason\">no session \(missing)</p>"), "\(page.body)")
        let api = try await client.send("GET", "/sessions/\(missing)/report", cookie: cookie)
        #expect(api.status == 404 && RunningCollector.errorCode(Data(api.body.utf8)) == "not_found")
        // A token's request is a program's, whatever it accepts.
        let withToken = try await collector.request("GET", "/sessions/\(missing)/report", token: collector.read, headers: ["Accept": html])
        #expect(withToken.status == 404 && RunningCollector.errorCode(withToken.body) == "not_found")
        // A path no route takes, and a log the browser cannot fetch without a token.
        let nowhere = try await client.send("GET", "/nowhere", accept: html)
        #expect(nowhere.status == 401 && nowhere.body.contains("<h1>Sign in first</h1>") && nowhere.headers["www-authenticate"] == "Bearer")
    }

    /// `GET /v1/sessions?limit=N` pages what the whole list holds, newest first, through its
    /// `Link` header, with the page's filters; a bad query is a 400 with a JSON body.
    @Test func theAPIPagesTheListThroughItsLinkHeader() async throws {
        let (collector, sessions, folder) = try await Self.demo()
        defer { withExtendedLifetime(folder) {} }
        func listed(_ path: String) async throws -> (ids: [String], next: String?) {
            let answer = try await collector.request("GET", path, token: collector.read)
            #expect(answer.status == 200, "\(path): \(String(decoding: answer.body, as: UTF8.self))")
            let rows = try JSONSerialization.jsonObject(with: answer.body) as? [[String: Any]] ?? []
            return (rows.map { $0["session"] as? String ?? "" }, answer.headers["link"])
        }
        let newestFirst = sessions.sorted { ($0.startedAt, $0.id?.uuidString ?? "") > ($1.startedAt, $1.id?.uuidString ?? "") }
        var paged: [[String]] = []
        var path: String? = "/v1/sessions?limit=3"
        var links: [String] = []
        while let next = path, paged.count < 10 {
            let page = try await listed(next)
            paged.append(page.ids)
            links += page.next.map { [$0] } ?? []
            path = page.next.map { String($0.dropFirst().prefix { $0 != ">" }) }
        }
        #expect(paged.map(\.count) == [3, 3, 1])
        #expect(paged.flatMap { $0 } == newestFirst.map { $0.id?.uuidString ?? "" })
        #expect(links.allSatisfy { $0.hasPrefix("</v1/sessions?limit=3&after=") && $0.hasSuffix(">; rel=\"next\"") }, "\(links)")
        #expect(Set(try await listed("/v1/sessions").ids) == Set(newestFirst.map { $0.id?.uuidString ?? "" }), "unpaged: every session")

        let login = newestFirst.filter { $0.flow == "login" }.map { $0.id?.uuidString ?? "" }
        #expect(!login.isEmpty && login.count < sessions.count)
        let filtered = try await listed("/v1/sessions?flow=login&limit=500")
        #expect(filtered.ids == login && filtered.next == nil)

        for (query, message) in [
            ("limit=0", "limit takes 1 to 500 sessions, not 0"), ("limit=501", "limit takes 1 to 500 sessions, not 501"),
            ("limit=ten", "limit takes 1 to 500 sessions, not ten"),
            ("after=nowhere", "the page's place (after) is not one this page links to: start from the newest"),
            ("since=yesterday&limit=5", "invalid since \"yesterday\": expected a duration"),
        ] {
            let answer = try await collector.request("GET", "/v1/sessions?\(query)", token: collector.read)
            let body = try JSONSerialization.jsonObject(with: answer.body) as? [String: [String: String]]
            #expect(answer.status == 400 && body?["error"]?["code"] == "bad_request", "\(query)")
            #expect(body?["error"]?["message"]?.hasPrefix(message) == true, "\(query): \(String(decoding: answer.body, as: UTF8.self))")
        }
        #expect(try await collector.request("GET", "/v1/sessions?limit=3", token: collector.upload).status == 403)
    }

    @Test func aVerdictArrivesWithAReadTokenAndShowsOnItsRow() async throws {
        let (collector, sessions, folder) = try await Self.demo()
        let client = Client(base: collector.url)
        defer { withExtendedLifetime(folder) {} }
        let first = try #require(sessions[0].id).uuidString
        let path = "/v1/sessions/\(first)/verdict"
        let refused: [(String?, String, Int, String)] = [
            (collector.upload, #"{"outcome":"passed","step":0,"build":"a"}"#, 403, "forbidden"),
            (collector.read, "not json", 400, "bad_request"),
            (collector.read, #"{"outcome":"maybe","step":0,"build":"a"}"#, 422, "invalid_value"),
            (collector.read, #"{"outcome":"diverged","step":-1,"build":"a"}"#, 422, "invalid_value"),
            (collector.read, #"{"outcome":"diverged","step":9223372036854775807,"build":"a"}"#, 422, "invalid_value"),
            (collector.read, #"{"outcome":"diverged","step":3,"build":"<b>"}"#.replacingOccurrences(of: "<b>", with: "a\\u001bb"), 422, "invalid_value"),
            (collector.read, #"{"outcome":"diverged","step":3,"build":"\#(String(repeating: "a", count: 5_000))"}"#, 413, "too_large"),
        ]
        for (token, body, status, code) in refused {
            let answer = try await client.send("POST", path, token: token, json: body)
            #expect(answer.status == status && RunningCollector.errorCode(Data(answer.body.utf8)) == code, "\(body.prefix(80)): \(answer.body)")
        }
        let missing = try await client.send(
            "POST", "/v1/sessions/\(UUID().uuidString)/verdict", token: collector.read, json: #"{"outcome":"passed","step":0,"build":"a"}"#)
        #expect(missing.status == 404)
        let kept = try await client.send("POST", path, token: collector.read, json: #"{"outcome":"diverged","step":12,"build":"abc123"}"#)
        #expect(kept.status == 200 && kept.body == #"{"build":"abc123","session":"\#(first)","verdict":"diverged at step 12"}"#)
        let cookie = try await client.signIn(collector.read)
        let page = try await client.send("GET", "/", cookie: cookie)
        #expect(page.body.contains(#"<td class="verdict verdict-diverged">diverged at step 12 <span class="against">build abc123</span></td>"#))
    }

    /// A planted divergence: a session recorded by an older login screen, collected, replayed
    /// by CI from the collector's URL against this build; its row then says where it diverged.
    @Test func aReplayFromTheCollectorShowsItsDivergenceOnTheRow() async throws {
        let folder = try TemporaryDirectory()
        let store = folder.path("store.rewind")
        try ReplayCommandTests.recordOlderLogin(into: store)
        let id = try #require(try LogReader(path: store).sessions().first?.id).uuidString
        let collector = try await RunningCollector(store: store)
        let client = Client(base: collector.url)

        let replay = try await TeamStoreBuild.run(
            ["replay", "\(collector.url)/sessions/\(id)", "--record-verdict", "ci-4512"], environment: ["REWIND_TOKEN": collector.read])
        #expect(replay.status == 1 && replay.stdout.hasPrefix("FAILED  \(collector.url)/sessions/\(id) #1 (older): diverged at step 2"), "\(replay.stderr)")
        let cookie = try await client.signIn(collector.read)
        let page = try await client.send("GET", "/", cookie: cookie)
        #expect(page.body.contains(#"<td class="verdict verdict-diverged">diverged at step 2 <span class="against">build ci-4512</span></td>"#))

        // Without a read token, the replay says so and keeps nothing.
        let refused = try await TeamStoreBuild.run(
            ["replay", "\(collector.url)/sessions/\(id)", "--record-verdict", "ci-4513"], environment: ["REWIND_TOKEN": collector.upload])
        #expect(refused.status != 0 && !refused.stderr.isEmpty)
        #expect(try await client.send("GET", "/", cookie: cookie).body.contains("build ci-4512"))
    }
}
#endif
