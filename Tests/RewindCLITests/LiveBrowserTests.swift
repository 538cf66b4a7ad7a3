import Foundation
import RewindCore
import RewindJSON
import RewindLive
import RewindLog
import RewindTestSupport
import RewindWebDriver
import Testing

/// The live page of `rewind live` in headless Chromium, with a recording store connected to
/// the real server as an app's would be: steps appear as the app takes them, and the page's
/// buttons send the app to a step and back. A screenshot is saved under
/// `.build/report-screenshots/`.
@MainActor @Suite(.serialized, .serversBuild, .browser) struct LiveBrowserTests {
    /// Polls `condition` every 10 ms, at most `tries` times (a minute at least: a bound that
    /// only stops a hung test); whether it came to hold.
    private func eventually(tries: Int = 6_000, _ condition: () async throws -> Bool) async throws -> Bool {
        for _ in 0..<tries {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    @Test func stepsAppearAndTheButtonsTravelTheApp() async throws {
        let folder = try TemporaryDirectory()
        let inspector = try await LiveInspectorTests.Inspector(log: folder.path("inspector.rewind"), in: folder)
        let path = folder.path("app.rewind")
        let session = SessionDescriptor(name: "tally", flow: "tally")
        let store = Store(
            initialState: LiveInspectorTests.Tally.State(), reducer: LiveInspectorTests.Tally(), recordingTo: try .sqlite(path: path),
            session: session, live: .inspector(inspector.url, allowsTravel: true))
        let browser = try await Browser.launch()
        do {
            try await browser.open(inspector.url)
            do {
                // The store was made before the page opened: its connection may have sent the session's
                // start already (a slow browser launch), and then the page starts connected.
                _ = try await browser.waitUntil("return ['waiting', 'connected'].includes(document.body.dataset.live)")
            } catch {
                // What the browser shows instead, for the failure's message.
                let seen = try? await browser.evaluate(
                    "return [location.href, document.readyState, JSON.stringify(document.body.dataset), document.title, document.body.innerText.slice(0, 300)].join(' | ')"
                )
                let errors = (try? await browser.consoleErrors()) ?? []
                Issue.record("the live page did not start: \(seen?.string ?? "?") · console: \(errors)")
                throw error
            }
            for number in 1...50 { store.send(.add(number)) }
            _ = try await browser.waitUntil("return document.body.dataset.live === 'connected'")
            _ = try await browser.waitUntil(
                "return document.getElementById('live-status').textContent.startsWith('app at step 50')")
            // The page follows the app's newest step.
            #expect(try await browser.elementText(css: "#step-label") == "step 50 of 50")

            _ = try await browser.evaluate("location.hash = '#session=1&step=10'; return true")
            _ = try await browser.waitUntil("return document.getElementById('live-travel').textContent === 'Travel to 10'")
            try await browser.click(css: "#live-travel")
            #expect(try await eventually { store.isTravelling })
            #expect(store.state == LiveInspectorTests.Tally.State(total: 55, count: 10))
            _ = try await browser.waitUntil(
                "return document.getElementById('live-status').textContent.includes('travelling: shows step 10')")
            try FileManager.default.createDirectory(at: ReportBrowserTests.screenshots, withIntermediateDirectories: true)
            try await browser.screenshot(to: ReportBrowserTests.screenshots.appendingPathComponent("live-travelling.png").path)

            try await browser.click(css: "#live-resume")
            #expect(try await eventually { !store.isTravelling })
            #expect(store.state.count == 50)
            #expect(try await browser.consoleErrors() == [])
        } catch {
            try? await browser.close()
            throw error
        }
        try await browser.close()
        store.recorder?.close()
    }

    /// The page loads what is new only: a session of 5,000 steps in two loads (4,096 at most
    /// each), one more step in one load of a row's bytes, a reload from nothing in two again,
    /// and, after the inspector is stopped and started again, the page reconnects and asks
    /// from its cursor.
    @Test func aGrowingSessionIsLoadedAfterWhatThePageHolds() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("inspector.rewind")
        let inspector = try await LiveInspectorTests.Inspector(log: log, in: folder)
        let session = SessionDescriptor(name: "tally", flow: "tally")
        let store = Store(
            initialState: LiveInspectorTests.Tally.State(), reducer: LiveInspectorTests.Tally(),
            recordingTo: try .sqlite(path: folder.path("app.rewind")), session: session, live: .inspector(inspector.url))
        for number in 1...5_000 { store.send(.add(number)) }
        let browser = try await Browser.launch()
        do {
            // Opened once the inspector holds every step: the page's loads are then its own.
            #expect(
                try await eventually {
                    let (_, body) = try await inspector.request("GET", "/v1/sessions/\(session.id.uuidString)")
                    return (try? JSONValue(parsing: [UInt8](body)))?[JSONPath("stored_through")] == 5_000
                })
            try await browser.open(URL(string: inspector.url.absoluteString + "/?timing=1")!)
            _ = try await browser.waitUntil("return document.getElementById('step-label').textContent === 'step 5000 of 5000'")
            let whole = try await Self.timing(browser)
            #expect(whole.loads == 2 && whole.rows == 5_000)

            store.send(.add(1))
            _ = try await browser.waitUntil("return document.getElementById('step-label').textContent === 'step 5001 of 5001'")
            let grown = try await Self.timing(browser)
            #expect(grown.loads == whole.loads + 1 && grown.rows == 5_001)
            // One row and the session's header: under a kilobyte, where the whole was hundreds.
            #expect(grown.bytes - whole.bytes < 1_000, "\(grown.bytes - whole.bytes) bytes for one step")
            #expect(try await browser.elementText(css: "#timeline .row.selected .step").contains("5001"))

            kill(inspector.process.pid, SIGTERM)
            #expect(try await inspector.process.waitForExit() == 0)
            let restarted = try await LiveInspectorTests.Inspector(log: log, port: inspector.port, in: folder)
            // The event stream comes back by itself, and the page asks after what it holds.
            _ = try await browser.waitUntil("return window.rewindLiveTiming().loads > \(grown.loads)", timeout: .seconds(60))
            let again = try await Self.timing(browser)
            #expect(again.rows == 5_001 && again.bytes - grown.bytes < 1_000, "\(again)")

            _ = try await browser.evaluate("location.reload(); return true")
            _ = try await browser.waitUntil("return document.getElementById('step-label').textContent === 'step 5001 of 5001'")
            #expect(try await Self.timing(browser).loads == 2, "a reload catches up in two loads")
            // The page's tries to reconnect while no inspector ran are the browser's errors.
            #expect(try await browser.consoleErrors().filter { !$0.contains("ERR_CONNECTION_REFUSED") } == [])
            withExtendedLifetime(restarted) {}
        } catch {
            try? await browser.close()
            throw error
        }
        try await browser.close()
        store.recorder?.close()
    }

    /// The live page's loads, the bytes they took and the rows it holds (`?timing=1`).
    private nonisolated static func timing(_ browser: Browser) async throws -> (loads: Int, bytes: Int, rows: Int) {
        let value = try await browser.evaluate("const t = window.rewindLiveTiming(); return [t.loads, t.bytes, t.rows]")
        guard case .array(let numbers) = value, numbers.count == 3, let loads = numbers[0].int, let bytes = numbers[1].int, let rows = numbers[2].int
        else { throw LocalHTTPError("no timing: \(value)") }
        return (loads, bytes, rows)
    }

    /// Names, for the hostile strings of a live page: each action sets one.
    struct Naming: Reducer, Sendable {
        struct State: Codable, Equatable, Sendable {
            var name = ""
        }

        enum Action: Codable, Equatable, Sendable, DescribedAction {
            case rename(String)
            var origin: String { "naming" }
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            if case .rename(let name) = action { state.name = name }
            return .none
        }
    }

    /// Recorded strings reach the live page as text: in the session's tab, the state, the
    /// action prefilled in the dispatch field and the app's status, nothing runs or is markup.
    @Test func hostileStringsStayTextOnTheLivePage() async throws {
        let folder = try TemporaryDirectory()
        let inspector = try await LiveInspectorTests.Inspector(log: folder.path("inspector.rewind"), in: folder)
        let hostile = [
            "</script><script>window.pwned=1</script>", "<img src=x onerror=\"window.pwned=2\">", "\u{202E}evil\u{202C} javascript:alert(1)",
        ]
        let store = Store(
            initialState: Naming.State(), reducer: Naming(), recordingTo: try .sqlite(path: folder.path("app.rewind")),
            session: SessionDescriptor(name: "<b>hostile</b>", flow: "naming"), live: .inspector(inspector.url, allowsTravel: true))
        for name in hostile { store.send(.rename(name)) }
        let browser = try await Browser.launch()
        do {
            try await browser.open(inspector.url)
            _ = try await browser.waitUntil(
                "return document.getElementById('live-status').textContent.startsWith('app at step 3')")
            #expect(try await ReportBrowserTests.texts(browser, ".session-tab .name") == ["#1 <b>hostile</b>"])
            #expect(try await browser.elementText(css: "#live-action").isEmpty)
            let action = try await browser.evaluate("return document.getElementById('live-action').value").string ?? ""
            // Bidirectional controls show as their escapes, as everywhere on the page; the text
            // still parses back to the action.
            #expect(action == #"{ "rename": { "_0": "\u202eevil\u202c javascript:alert(1)" } }"#)
            _ = try await browser.evaluate("location.hash = '#session=1&step=2'; return true")
            _ = try await browser.waitUntil(
                "return document.getElementById('live-action').value.includes('onerror')")
            #expect(try await browser.evaluate("return window.pwned === undefined") == true)
            #expect(try await browser.evaluate("return document.querySelectorAll('img, b, script:not([id])').length") == 1, "only the page's script")
            try FileManager.default.createDirectory(at: ReportBrowserTests.screenshots, withIntermediateDirectories: true)
            try await browser.screenshot(to: ReportBrowserTests.screenshots.appendingPathComponent("live-hostile.png").path)
            #expect(try await browser.consoleErrors() == [])
        } catch {
            try? await browser.close()
            throw error
        }
        try await browser.close()
        store.recorder?.close()
    }
}
