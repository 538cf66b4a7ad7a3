import Foundation
import RewindCore
import RewindLive
import RewindLog
import RewindWebDriver

/// The browser's own part of dispatch to page (DESIGN section 17): the live page itself, in
/// headless Chromium, follows the growing list at ``liveRate`` actions a second and times, with
/// its own marks (`?timing=1`, docs/live.md), each `steps` event to the step it announced laid
/// out on screen. The first 1,000 steps against the last 1,000 of the run (30,000 steps; 3,000
/// in a quick run) say whether the page's work grows with the session.
///
/// Without chromium and chromedriver the figures are left out with a note.
extension BenchmarkSuite {
    /// The steps at each end of the run whose events are compared.
    var liveBrowserWindow: Int { 1_000 }

    func measureLiveBrowser(rewind: String, into result: inout BenchmarkResult) async throws {
        guard Browser.isAvailable else {
            result.notes.append(
                "live: \(Browser.chromiumPath) or \(Browser.chromedriverPath) is missing (Debian: chromium, chromium-driver): the browser's figures left out"
            )
            return
        }
        // An inspector of its own: one that held the runs before would have the page load them too.
        guard let inspector = try BenchInspector(rewind: rewind, log: path("live-browser-inspector.rewind")) else { return }
        defer { inspector.stop() }
        let steps = liveGrowingSteps
        // Launched here and used only here: the browser is not Sendable, and this suite is the
        // main actor's.
        let browser = try await Browser.launch()
        let marks: BrowserValue
        do {
            try await browser.open(URL(string: inspector.url.absoluteString + "/?timing=1")!)
            _ = try await browser.waitUntil("return document.body.dataset.live === 'waiting'")
            let store = Store(
                initialState: GrowingList.State(), reducer: GrowingList(), recordingTo: try SQLiteSink(path: path("live-browser.rewind")),
                session: session("browser"), live: .inspector(inspector.url), execution: .manual)
            _ = sendPaced(steps) { store.send(GrowingList.action($0)) }
            // Each event is timed before the page shows its step: showing the last, it has timed all.
            marks = try await browser.waitUntil(
                "const t = window.rewindLiveTiming(); return t.rows >= arguments[0] && t.drawn.at(-1)?.[0] >= arguments[0] ? t.drawn : null",
                [.number(Double(steps))], timeout: .seconds(Double(steps / liveRate) + 120))
            store.recorder?.close()
        } catch {
            try? await browser.close()
            throw error
        }
        try await browser.close()
        let drawn = try Self.timingMarks(marks)

        let window = min(liveBrowserWindow, steps / 2)
        let early = Percentiles(drawn.filter { $0.step <= window }.map(\.milliseconds))
        let late = Percentiles(drawn.filter { $0.step > steps - window }.map(\.milliseconds))
        let whole = Percentiles(drawn.map(\.milliseconds))
        result.add(
            "live_browser_drawn_p50_ms", whole.p50,
            "the page in headless Chromium, event to step drawn, a list growing to \(steps / 3) items, \(liveRate) actions/s, p50 (ms)")
        defer { result.add("live_browser_events", Double(drawn.count), "the page's steps events, each timed to its step drawn") }
        // One event may announce many steps: a page too slow to keep up may time none at one end.
        guard !early.sorted.isEmpty, !late.sorted.isEmpty else {
            result.notes.append("live: the page timed no event among the first or the last \(window) steps; its early and late figures left out")
            return
        }
        result.add(
            "live_browser_drawn_early_p99_ms", early.p99, "the same, the events of steps 1-\(window), p99 (ms)", baseline: "early in the session")
        result.add("live_browser_drawn_late_p99_ms", late.p99, "the same, the events of steps \(steps - window + 1)-\(steps), p99 (ms)")
        result.add(
            "ratio_live_browser_drawn_late_early", late.p99 / max(0.001, early.p99), "ratio: the page's own part, late / early, p99 (×)",
            atMost: 1.5)
    }

    /// The page's marks, `[[step, ms], …]`: each event's last step and the milliseconds from
    /// the event to that step drawn.
    private nonisolated static func timingMarks(_ marks: BrowserValue) throws -> [(step: Int, milliseconds: Double)] {
        guard let list = marks.array else { throw BenchmarkError("the live page gave no timing marks: \(marks)") }
        return try list.map { mark in
            guard let step = mark[0]?.int, let milliseconds = mark[1]?.number else { throw BenchmarkError("a timing mark that is not [step, ms]: \(mark)") }
            return (step, milliseconds)
        }
    }
}
