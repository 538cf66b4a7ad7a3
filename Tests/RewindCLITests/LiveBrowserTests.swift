import Foundation
import RewindCore
import RewindJSON
import RewindLive
import RewindLog
import RewindTestSupport
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
