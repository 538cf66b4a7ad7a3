#if Servers
import Foundation
import RewindLog
import RewindTestSupport
import RewindWebDriver
import Testing

@testable import RewindCollector

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Share links (issue 51): a session's report in any browser without a token, signed, until
/// it expires, never another session's, never an upload, all revoked at once.
@Suite struct ShareLinkTests {
    let session = UUID(uuidString: "1B4E28BA-2FA1-11D2-883F-0016D3CCA427")!
    let base = URL(string: "https://collector.example")!

    /// The query of `link` as the route reads it.
    private func parameters(_ link: URL) -> [String: String] {
        var parameters: [String: String] = [:]
        for item in URLComponents(url: link, resolvingAgainstBaseURL: false)?.queryItems ?? [] { parameters[item.name] = item.value }
        return parameters
    }

    @Test func aLinkOpensItsSessionAloneUntilItExpires() throws {
        let folder = try TemporaryDirectory()
        let links = ShareLinks(tokenFile: folder.path("collector.tokens"))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let link = try links.create(session: session, expires: now.addingTimeInterval(3_600), base: base, now: now)
        #expect(link.absoluteString.hasPrefix("https://collector.example/s/1B4E28BA-2FA1-11D2-883F-0016D3CCA427?expires=1800003600&key="))
        let valid = parameters(link)
        #expect(try links.check(session: session, parameters: valid, now: now) == nil)
        #expect(try links.check(session: UUID(), parameters: valid, now: now) == .altered)
        var later = valid
        later["expires"] = "1900000000"
        #expect(try links.check(session: session, parameters: later, now: now) == .altered)
        var changed = valid
        changed["sig"] = String(valid["sig"]!.dropLast()) + (valid["sig"]!.hasSuffix("A") ? "B" : "A")
        #expect(try links.check(session: session, parameters: changed, now: now) == .altered)
        var cut = valid
        cut["sig"] = nil
        #expect(try links.check(session: session, parameters: cut, now: now) == .incomplete)
        let expiry = now.addingTimeInterval(3_600)
        #expect(try links.check(session: session, parameters: valid, now: expiry) == .expired(expiry))
        #expect(ShareLinks.Refusal.expired(expiry).description == "This link expired on 2027-01-15 09:00:00 UTC. Ask for a new link.")
        #expect(throws: CollectorError.self) { try links.create(session: session, expires: now.addingTimeInterval(367 * 86_400), base: base, now: now) }

        // The key beside the token file, readable by its owner alone.
        let mode = try FileManager.default.attributesOfItem(atPath: links.path)[.posixPermissions] as? Int
        #expect(links.path == folder.path("collector.tokens.links") && mode == 0o600)

        try links.revokeAll()
        #expect(try links.check(session: session, parameters: valid, now: now) == .revoked)
        let again = try links.create(session: session, expires: now.addingTimeInterval(60), base: base, now: now)
        #expect(try links.check(session: session, parameters: parameters(again), now: now) == nil)
    }
}

/// Share links against the real collector, opened in headless Chromium: the report without a
/// token; an altered, other-session, expired or revoked link gets a page that says why; the
/// access log never holds a signature. A screenshot is saved under `.build/report-screenshots/`.
@MainActor @Suite(.serialized, .serversBuild, .browser) struct ShareLinkBrowserTests {
    @Test func aLinkOpensTheReportAndABadOneSaysWhy() async throws {
        let folder = try TemporaryDirectory()
        let store = folder.path("store.rewind")
        #expect(try await TeamStoreBuild.run(["demo", "--output", store]).status == 0)
        let sessions = try LogReader(path: store).sessions()
        let (first, second) = (try #require(sessions[0].id), try #require(sessions[1].id))
        let accessLog = folder.path("access.log")
        let collector = try await RunningCollector(store: store, extra: ["--access-log", accessLog])
        let made = try await TeamStoreBuild.run(
            ["serve", "link", "create", "--store", store, "--tokens", collector.tokens, first.uuidString, "--expires", "1h", "--base", collector.url])
        #expect(made.status == 0, "\(made.stderr)")
        let link = try #require(URL(string: made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let query = try #require(link.query)
        let signature = try #require(query.split(separator: "&").first { $0.hasPrefix("sig=") }?.dropFirst(4))

        let browser = try await Browser.launch()
        do {
            try await browser.open(link)
            _ = try await browser.waitUntil("return document.querySelectorAll('#timeline .row').length > 0")
            #expect(try await browser.elementText(css: ".session-tab .name").contains("login-happy"))
            try FileManager.default.createDirectory(at: ReportBrowserTests.screenshots, withIntermediateDirectories: true)
            try await browser.screenshot(to: ReportBrowserTests.screenshots.appendingPathComponent("share-link.png").path)

            let altered = URL(string: String(link.absoluteString.dropLast()) + (link.absoluteString.hasSuffix("A") ? "B" : "A"))!
            let otherSession = URL(string: link.absoluteString.replacingOccurrences(of: first.uuidString, with: second.uuidString))!
            let expired = try ShareLinks(tokenFile: collector.tokens).create(
                session: first, expires: Date().addingTimeInterval(-60), base: URL(string: collector.url)!, now: Date().addingTimeInterval(-3_600))
            let refusals: [(URL, String)] = [
                (altered, ShareLinks.Refusal.altered.description), (otherSession, ShareLinks.Refusal.altered.description),
                (expired, "This link expired on "),
            ]
            for (url, reason) in refusals {
                try await browser.open(url)
                #expect(try await browser.elementText(css: "#reason").hasPrefix(reason), "\(url)")
                #expect(try await Self.status(url) == 403)
            }
            try await browser.screenshot(to: ReportBrowserTests.screenshots.appendingPathComponent("share-link-refused.png").path)

            // Never a token: no upload, no list, no other route.
            let upload = try await collector.request("POST", "/v1/sessions/\(first.uuidString)/blocks?\(query)", token: nil, body: Data([1]))
            #expect(upload.status == 401)
            #expect(try await collector.request("GET", "/v1/sessions?\(query)", token: nil).status == 401)
            #expect(try await collector.request("GET", "/sessions/\(first.uuidString)/report?\(query)", token: nil).status == 401)

            // revoke-all: the link made before stops working.
            #expect(try await TeamStoreBuild.run(["serve", "link", "revoke-all", "--store", store, "--tokens", collector.tokens]).status == 0)
            try await browser.open(link)
            #expect(try await browser.elementText(css: "#reason") == ShareLinks.Refusal.revoked.description)
            // The refused pages' own 403s are the only errors: nothing the CSP blocked.
            let errors = try await browser.consoleErrors()
            #expect(errors.allSatisfy { $0.contains("status of 403") }, "\(errors)")
        } catch {
            try? await browser.close()
            throw error
        }
        try await browser.close()

        let lines = try await collector.accessLog(accessLog, lines: 11)
        #expect(lines.count >= 11 && lines.allSatisfy { !$0.contains("sig") && !$0.contains(signature) }, "\(lines)")
        #expect(lines.first?.contains("GET /s/\(first.uuidString) 200 ") == true, "\(lines)")

        // A session the store does not hold, and a bad duration, are one line each.
        let missing = try await TeamStoreBuild.run(["serve", "link", "create", "--store", store, "--tokens", collector.tokens, UUID().uuidString])
        #expect(missing.status != 0 && missing.stderr.contains("holds no session"), "\(missing.stderr)")
        let forever = try await TeamStoreBuild.run(["serve", "link", "create", "--store", store, first.uuidString, "--expires", "400d"])
        #expect(forever.status == 64 && forever.stderr.contains("from 1s to 366d"), "\(forever.stderr)")
    }

    /// `rewind push --link`: the app's upload token asks for a link to what it sent, and gets
    /// none for another app's session.
    @Test func pushPrintsALinkToWhatItSent() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("app.rewind")
        #expect(try await TeamStoreBuild.run(["record", "login", "--random", "--seed", "1", "--steps", "30", "--output", log]).status == 0)
        let collector = try await RunningCollector()
        let pushed = try await TeamStoreBuild.run(["push", log, "--to", collector.url, "--token", collector.upload, "--link"])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let id = try #require(try LogReader(path: log).sessions().first?.id)
        let line = try #require(pushed.stdout.split(separator: "\n").first { $0.hasPrefix("link: ") })
        let link = try #require(URL(string: String(line.dropFirst(6))))
        #expect(link.absoluteString.hasPrefix("\(collector.url)/s/\(id.uuidString)?expires="), "\(link)")
        let (data, response) = try await URLSession.shared.data(from: link)
        #expect((response as? HTTPURLResponse)?.statusCode == 200 && String(decoding: data, as: UTF8.self).contains("<title>"))

        // Another app's token learns nothing of the session; a read token makes no link.
        let other = try await collector.uploadToken(app: "other")
        #expect(try await collector.request("POST", "/v1/sessions/\(id.uuidString)/link", token: other).status == 404)
        #expect(try await collector.request("POST", "/v1/sessions/\(id.uuidString)/link", token: collector.read).status == 403)
        #expect(try await collector.request("POST", "/v1/sessions/\(id.uuidString)/link?expires=99999999999", token: collector.upload).status == 400)
        let misuse = try await TeamStoreBuild.run(["push", log, "--to", "postgres://nobody@127.0.0.1:1/none", "--link"])
        #expect(misuse.status == 64 && misuse.stderr.contains("--link asks a collector"), "\(misuse.stderr)")
    }

    private static func status(_ url: URL) async throws -> Int {
        let (_, response) = try await URLSession.shared.data(from: url)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}
#endif
