#if Servers
import Foundation
import RewindCore
import RewindLog
import RewindTestSupport
import RewindWebDriver
import Testing

/// The sessions page in headless Chromium against the real collector (issue 51): signed in
/// through its form, paged, filtered, a row's report and share link opened, another site's
/// form refused, signed out; hostile recorded strings, a 1 MB name among them, shown as text.
/// Screenshots are saved under `.build/report-screenshots/`.
@MainActor @Suite(.serialized, .serversBuild, .browser) struct SessionsPageBrowserTests {
    enum Tap: String, Codable, Equatable, Sendable, DescribedAction {
        case tap
    }

    /// Markup that would run if it were markup.
    static let markup = "<img src=x onerror=window.pwned=1>"

    /// 120 sessions a second apart (`session-000` first), flows `even` and `odd` in turn,
    /// every fifth reported; then one, newest, whose every string is hostile and whose name
    /// is a megabyte.
    static func store(in folder: TemporaryDirectory) throws -> String {
        let path = folder.path("store.rewind")
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        func record(name: String, flow: String, at: Date, metadata: SessionMetadata) throws {
            let recorder = Recorder<Int, Tap>(
                sink: try SQLiteSink(path: path), session: SessionDescriptor(name: name, flow: flow, now: { at }, id: UUID(), metadata: metadata))
            recorder.start(initialState: 0)
            recorder.record(.tap, state: 1, step: 1)
            recorder.close()
        }
        for index in 0..<120 {
            let tags = index % 5 == 0 ? SessionReport(reason: "crash in checkout", step: 1).tags : [:]
            try record(
                name: String(format: "session-%03d", index), flow: index % 2 == 0 ? "even" : "odd", at: start.addingTimeInterval(Double(index)),
                metadata: SessionMetadata(
                    app: "Shop", appVersion: "2.\(index % 3)", appBuild: "41\(index % 2)", device: "iPhone15,2", origin: .device, tags: tags))
        }
        let name = String(repeating: markup, count: 1_048_576 / markup.utf8.count + 1)
        try record(
            name: name, flow: "<b>flow</b>", at: start.addingTimeInterval(1_000),
            metadata: SessionMetadata(
                app: "Shop", appVersion: "javascript:window.pwned=2", appBuild: "\u{202E}1.2", device: "\"><script>window.pwned=3</script>",
                origin: .device,
                tags: ["\" onmouseover=\"window.pwned=4": "javascript:window.pwned=5", SessionReport.tag: "</td><td>\(markup)"]))
        return path
    }

    @Test func signInFilterPageShareAndSignOut() async throws {
        let folder = try TemporaryDirectory()
        let store = try Self.store(in: folder)
        let collector = try await RunningCollector(store: store)
        let root = URL(string: collector.url + "/")!
        try FileManager.default.createDirectory(at: ReportBrowserTests.screenshots, withIntermediateDirectories: true)
        let shots = ReportBrowserTests.screenshots

        // Two replays' verdicts, as CI records them (`rewind replay URL --record-verdict`).
        let sessions = try LogReader(path: store).sessions()
        for (index, outcome, step) in [(119, "diverged", 1), (118, "passed", 0)] {
            let sent = try await collector.request(
                "POST", "/v1/sessions/\(try #require(sessions[index].id).uuidString)/verdict", token: collector.read,
                body: Data(#"{"outcome":"\#(outcome)","step":\#(step),"build":"ci-4512"}"#.utf8))
            #expect(sent.status == 200)
        }

        let browser = try await Browser.launch()
        do {
            try await browser.setViewport(width: 1400, height: 900)
            // Nothing without signing in: the form, and a report says where to sign in.
            try await browser.open(URL(string: collector.url + "/sessions/\(UUID().uuidString)/report")!)
            #expect(try await browser.elementText(css: "h1") == "Sign in first")
            try await browser.open(root)
            try await browser.setValue(css: "input[name=token]", value: collector.read)
            try await browser.click(css: "#sign-in button")
            _ = try await browser.waitUntil("return document.querySelector('#sessions') !== null")
            // The cookie is the server's: no script of the page can read it.
            #expect(try await browser.evaluate("return document.cookie").string == "")

            // The hostile session is the newest: its strings are text, cut, none ran.
            let rows = "return [...document.querySelectorAll('#sessions tbody tr')].map(r => r.querySelector('.name').textContent)"
            var names = try await browser.evaluate(rows).array?.compactMap(\.string) ?? []
            #expect(names.count == 50)
            let hostileName = try #require(names.first)
            #expect(hostileName.hasPrefix(Self.markup + Self.markup) && hostileName.count == 121 && hostileName.hasSuffix("…"))
            let cells = try await browser.evaluate(
                """
                const row = document.querySelector('#sessions tbody tr');
                return ['version', 'build', 'device', 'flow', 'reported', 'tags'].map(c => row.querySelector('.' + c).textContent).join('|');
                """
            ).string
            #expect(
                cells
                    == #"javascript:window.pwned=2|\u202e1.2|"><script>window.pwned=3</script>|<b>flow</b>|at step 0: </td><td><img src=x onerror=window.pwned=1>|" onmouseover="window.pwned=4=javascript:window.pwned=5"#
            )
            let verdicts = try await browser.evaluate(
                "return [...document.querySelectorAll('#sessions tbody tr')].slice(1, 3).map(r => r.querySelector('.verdict').textContent)")
            #expect(verdicts.array?.compactMap(\.string) == ["diverged at step 1 build ci-4512", "passed build ci-4512"])
            #expect(
                try await browser.evaluate("return window.pwned === undefined && document.querySelectorAll('img, b, script:not([src])').length === 0").bool
                    == true)
            // Every attribute of every row is one the page wrote: no recorded string made one.
            let attributes = try await browser.evaluate(
                "return [...document.querySelectorAll('#sessions *')].flatMap(e => [...e.attributes].map(a => a.name)).filter((n, i, all) => all.indexOf(n) === i).sort().join(' ')"
            ).string
            #expect(attributes == "aria-label class data-session data-share hidden href readonly type")
            try await browser.screenshot(to: shots.appendingPathComponent("sessions-page-hostile.png").path)

            // Paged: 50, 50, 21, newest first, each page after the last.
            try await browser.click(css: "#older")
            _ = try await browser.waitUntil("return document.querySelector('#newest') !== null")
            names += try await browser.evaluate(rows).array?.compactMap(\.string) ?? []
            try await browser.click(css: "#older")
            _ = try await browser.waitUntil("return document.querySelectorAll('#sessions tbody tr').length === 21")
            names += try await browser.evaluate(rows).array?.compactMap(\.string) ?? []
            #expect(try await browser.evaluate("return document.querySelector('#older') === null").bool == true)
            #expect(Array(names.dropFirst()) == (0..<120).reversed().map { String(format: "session-%03d", $0) })

            // Filtered as `rewind sessions` filters: flow and reported only.
            try await browser.click(css: "#newest")
            _ = try await browser.waitUntil("return document.querySelector('#newest') === null")
            try await browser.setValue(css: "input[name=flow]", value: "even")
            try await browser.evaluate("document.querySelector('input[name=reported]').checked = true")
            try await browser.click(css: "#apply")
            _ = try await browser.waitUntil("return location.search.includes('reported=1')")
            let filtered = try await browser.evaluate(rows).array?.compactMap(\.string) ?? []
            #expect(filtered == (0..<120).reversed().filter { $0 % 10 == 0 }.map { String(format: "session-%03d", $0) })
            #expect(try await browser.evaluate("return document.querySelector('input[name=flow]').value").string == "even")
            try await browser.screenshot(to: shots.appendingPathComponent("sessions-page.png").path)

            // "Copy share link": a link in the row, which opens the report with no sign-in.
            try await browser.click(css: "#sessions tbody tr button.share")
            let link = try await browser.waitUntil("return document.querySelector('#sessions tbody tr input.link').value").string ?? ""
            #expect(link.hasPrefix(collector.url + "/s/"), "\(link)")
            // The row's report, with the cookie.
            try await browser.click(css: "#sessions tbody tr a.open")
            _ = try await browser.waitUntil("return document.querySelectorAll('#timeline .row').length > 0")
            #expect(try await browser.elementText(css: ".session-tab .name").contains("session-110"))

            // Another site's form posts to the collector: refused, and the sign-in stands.
            let evil = folder.path("evil.html")
            try """
            <!doctype html><form id="f" method="post" action="\(collector.url)/signout"></form>
            <script>document.getElementById('f').submit()</script>
            """.write(toFile: evil, atomically: true, encoding: .utf8)
            try await browser.open(URL(fileURLWithPath: evil))
            _ = try await browser.waitUntil("return document.body && document.body.textContent.includes('sent from another site')")
            try await browser.open(root)
            #expect(try await browser.evaluate("return document.querySelector('#sessions') !== null").bool == true)

            // Signed out: the form again, and the report asks for a sign-in; the share link
            // still opens, as it does for anyone who has it.
            try await browser.click(css: "#sign-out")
            _ = try await browser.waitUntil("return document.querySelector('#sign-in') !== null")
            try await browser.open(URL(string: collector.url + "/sessions/\(UUID().uuidString)/report")!)
            #expect(try await browser.elementText(css: "h1") == "Sign in first")
            try await browser.open(URL(string: link)!)
            _ = try await browser.waitUntil("return document.querySelectorAll('#timeline .row').length > 0")
            let errors = try await browser.consoleErrors()
            #expect(errors.allSatisfy { $0.contains("status of 401") || $0.contains("status of 403") }, "\(errors)")
        } catch {
            try? await browser.close()
            throw error
        }
        try await browser.close()
    }
}
#endif
