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
@MainActor @Suite(.serialized, .enabled(if: Browser.isAvailable && TeamStoreBuild.enabled)) struct LiveBrowserTests {
    private func eventually(tries: Int = 3_000, _ condition: () async throws -> Bool) async throws -> Bool {
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
                _ = try await browser.waitUntil("return ['waiting', 'connected'].includes(document.body.dataset.live)", timeout: .seconds(30))
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
            _ = try await browser.waitUntil("return document.body.dataset.live === 'connected'", timeout: .seconds(30))
            _ = try await browser.waitUntil(
                "return document.getElementById('live-status').textContent.startsWith('app at step 50')", timeout: .seconds(30))
            // The page follows the app's newest step.
            #expect(try await browser.elementText(css: "#step-label") == "step 50 of 50")

            _ = try await browser.evaluate("location.hash = '#session=1&step=10'; return true")
            _ = try await browser.waitUntil("return document.getElementById('live-travel').textContent === 'Travel to 10'", timeout: .seconds(30))
            try await browser.click(css: "#live-travel")
            #expect(try await eventually { store.isTravelling })
            #expect(store.state == LiveInspectorTests.Tally.State(total: 55, count: 10))
            _ = try await browser.waitUntil(
                "return document.getElementById('live-status').textContent.includes('travelling: shows step 10')", timeout: .seconds(30))
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
}
