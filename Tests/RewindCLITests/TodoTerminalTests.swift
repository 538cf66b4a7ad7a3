import Foundation
import RewindJSON
import RewindTestSupport
import RewindWebDriver
import Testing

/// The example's terminal app (`Examples/TodoApp`, `todo-tui`) in a real terminal (tmux),
/// shown in `rewind live`, and sent through time from the live page in headless Chromium: its
/// own screen, redrawn from its store's state, shows each travel, skip and dispatch.
///
/// The app is another package's: `REWIND_TODO_TUI` names its built `todo-tui` (`.ci/run` sets
/// it after building the example), and `todo-rewind` beside it replays what it recorded.
/// `REWIND_REQUIRE_TODO_TUI=1` fails the suite when it is missing rather than skipping it.
@MainActor @Suite(.serialized) struct TodoTerminalTests {
    nonisolated static let binary: String? = {
        guard let path = ProcessInfo.processInfo.environment["REWIND_TODO_TUI"], !path.isEmpty else { return nil }
        return path
    }()

    nonisolated static let required = ProcessInfo.processInfo.environment["REWIND_REQUIRE_TODO_TUI"] == "1"

    /// The screen's lines from the first to the last rule, trailing blanks dropped.
    private func list(_ screen: String) -> [String] {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map { String($0.reversed().drop { $0 == " " }.reversed()) }
        return Array(lines.prefix { !$0.hasPrefix("filter:") })
    }

    /// The app's screen once it shows `text` (and not `unless`), polled every 10 ms for a minute
    /// at most: a bound that only stops a hung test.
    private func waitFor(_ tmux: Tmux, _ text: String, unless absent: String? = nil) async throws -> String {
        var screen = ""
        func shown() -> Bool { screen.contains(text) && !(absent.map(screen.contains) ?? false) }
        for _ in 0..<6_000 {
            screen = try tmux.screen()
            if shown() { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(shown(), "the app's screen never showed '\(text)'\(absent.map { " without '\($0)'" } ?? ""):\n\(screen)")
        return screen
    }

    @Test(
        .enabled(
            if: binary != nil || required,
            "needs the example's todo-tui: (cd Examples/TodoApp && swift build --scratch-path ../../.build), then REWIND_TODO_TUI=$PWD/.build/debug/todo-tui"),
        .serversBuild, .browser, .tmux)
    func theLivePageTravelsTheAppOnItsOwnScreen() async throws {
        let binary = try #require(Self.binary, "REWIND_TODO_TUI names no todo-tui")
        #expect(FileManager.default.isExecutableFile(atPath: binary), "\(binary) is not an executable")
        let folder = try TemporaryDirectory()
        let inspector = try await LiveInspectorTests.Inspector(log: folder.path("inspector.rewind"), in: folder)
        let log = folder.path("todo.rewind")
        let url = inspector.url.absoluteString
        let tmux = try Tmux(command: "\(Tmux.quoted(binary)) --log \(Tmux.quoted(log)) --live \(url)", columns: 100, rows: 20)
        let rule = String(repeating: "─", count: 60)
        let paused = "⏸ PAUSED by the inspector: a past state is shown, 0 actions held. Resume from the page."
        _ = try await waitFor(tmux, "Todo · step 0")
        for title in ["Buy milk", "Water the plants", "Call Ada"] {
            try tmux.send("a")
            try tmux.send(title, literally: true)
            try tmux.send("Enter")
        }
        try tmux.send("Down")
        try tmux.send("Space")
        let present = [
            "Todo · step 4 · live in \(url)", rule,
            "  [ ] #1 Buy milk", "> [x] #2 Water the plants", "  [ ] #3 Call Ada", rule,
        ]
        #expect(list(try await waitFor(tmux, "1 done")) == present)

        let browser = try await Browser.launch()
        do {
            try await browser.open(inspector.url)
            _ = try await browser.waitUntil(
                "return (document.getElementById('live-status') || {textContent: ''}).textContent.startsWith('app at step 4')")

            // Travel: the app shows step 1 and holds what its keys send.
            _ = try await browser.evaluate("location.hash = '#session=1&step=1'; return true")
            _ = try await browser.waitUntil("return document.getElementById('live-travel').textContent === 'Travel to 1'")
            try await browser.click(css: "#live-travel")
            #expect(list(try await waitFor(tmux, "PAUSED")) == ["Todo · step 4 · live in \(url)", rule, paused, rule, "> [ ] #1 Buy milk", rule])
            try tmux.send("a")
            try tmux.send("Not now", literally: true)
            try tmux.send("Enter")
            _ = try await waitFor(tmux, "1 action held")
            _ = try await browser.waitUntil(
                "return document.getElementById('live-status').textContent.includes('1 action held')")

            // Resume: the present again, the held action dropped.
            try await browser.click(css: "#live-resume")
            // The cursor stayed on the one row the past state had.
            #expect(
                list(try await waitFor(tmux, "#3 Call Ada", unless: "PAUSED")) == [
                    "Todo · step 4 · live in \(url)", rule, "> [ ] #1 Buy milk", "  [x] #2 Water the plants", "  [ ] #3 Call Ada", rule,
                ])

            // Skip step 1: the present recomputed without "Buy milk", the later ids shifted.
            _ = try await browser.waitUntil("return document.getElementById('live-skip').textContent === 'Skip 1'")
            try await browser.click(css: "#live-skip")
            #expect(
                list(try await waitFor(tmux, "#1 Water the plants")) == [
                    "Todo · step 4 · live in \(url)", rule, paused, rule, "> [ ] #1 Water the plants", "  [x] #2 Call Ada", rule,
                ])

            // Dispatch: an action as JSON, sent through the app's store, recorded as the inspector's.
            _ = try await browser.evaluate(
                #"document.getElementById('live-action').value = '{"addItem": {"title": "From the browser"}}'; return true"#)
            try await browser.click(css: "#live-dispatch")
            #expect(
                list(try await waitFor(tmux, "From the browser")) == [
                    "Todo · step 5 · live in \(url)", rule,
                    "> [ ] #1 Buy milk", "  [x] #2 Water the plants", "  [ ] #3 Call Ada", "  [ ] #4 From the browser", rule,
                ])
            _ = try await browser.waitUntil(
                "return document.getElementById('live-status').textContent.startsWith('app at step 5')")
            try FileManager.default.createDirectory(at: ReportBrowserTests.screenshots, withIntermediateDirectories: true)
            try await browser.screenshot(to: ReportBrowserTests.screenshots.appendingPathComponent("live-todo-tui.png").path)
            #expect(try await browser.consoleErrors() == [])
        } catch {
            try? await browser.close()
            throw error
        }
        try await browser.close()

        // The same from a terminal: `rewind step --live` on the inspector's log, at step 2, `t`
        // travels the app there and `c` resumes it.
        let rewind = try #require(TeamStoreBuild.binary).path
        let stepper = try Tmux(
            command: "\(Tmux.quoted(rewind)) step \(Tmux.quoted(inspector.log)) --live \(url)", columns: 120, rows: 30)
        _ = try await waitFor(stepper, "t travel")
        try stepper.send("j")
        try stepper.send("2", literally: true)
        try stepper.send("Enter")
        _ = try await waitFor(stepper, "step 2 of 5")
        try stepper.send("t")
        _ = try await waitFor(stepper, "the app shows step 2, paused at step 5 (0 actions held)")
        #expect(
            list(try await waitFor(tmux, "PAUSED")) == [
                "Todo · step 5 · live in \(url)", rule, paused, rule, "> [ ] #1 Buy milk", "  [ ] #2 Water the plants", rule,
            ])
        try stepper.send("c")
        _ = try await waitFor(stepper, "the app is at step 5, in its present")
        _ = try await waitFor(tmux, "#4 From the browser", unless: "PAUSED")
        try stepper.send("q")

        try tmux.send("q")
        // The app ends: its last line, or tmux's word that it ended (tmux 3.3 may lose the last
        // bytes a program wrote before it ended, and then shows only that).
        var ended = ""
        for _ in 0..<6_000 {
            ended = try tmux.screen()
            if ended.contains("todo-tui: recorded 5 steps into \(log)") || ended.contains("Pane is dead (status 0") { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(ended.contains("todo-tui: recorded 5 steps") || ended.contains("Pane is dead (status 0"), "the app did not end:\n\(ended)")
        // What the app recorded live is an ordinary session: the dispatch is the inspector's,
        // and the app's own inspector replays it clean.
        let shown = try await TeamStoreBuild.run(["show", log, "5", "--json"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let step = try JSONValue(parsing: shown.stdout)
        #expect(step[JSONPath("origin")] == "inspector" && step[JSONPath("action_type")] == "addItem")
        let todoRewind = URL(fileURLWithPath: binary).deletingLastPathComponent().appendingPathComponent("todo-rewind").path
        let replay = try await RewindBinary.run(["replay", log], executable: URL(fileURLWithPath: todoRewind))
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("5 steps replayed, every state matches"), "\(replay.stdout)")
    }
}
