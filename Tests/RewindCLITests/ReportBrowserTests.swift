import Foundation
import RewindJSON
import RewindWebDriver
import Testing

/// `rewind report` as a person sees it: the page the real binary writes, opened in headless
/// Chromium at URL fragments, stepped with keys and the slider, its diffs and histories
/// compared with what the command line prints for the same steps, and hostile strings that
/// stay text. Four views are saved as screenshots under `.build/report-screenshots/`.
@Suite(.browser, .serialized)
struct ReportBrowserTests {
    /// Where the screenshots go, for review (CONTRIBUTING.md says so).
    static let screenshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/report-screenshots")

    /// The demo log and its report, in a fresh folder.
    static func demoReport(in folder: TemporaryDirectory) async throws -> (log: String, page: URL) {
        let log = folder.path("demo.rewind")
        try await DemoLog.record(into: log)
        let page = folder.path("demo.html")
        let result = try await RewindBinary.run(["report", log, "--output", page])
        #expect(result.status == 0, "\(result.stderr)")
        return (log, URL(fileURLWithPath: page))
    }

    /// The report of the log at `log`, written beside it by the real binary.
    static func report(of log: String) throws -> URL {
        let page = URL(fileURLWithPath: (log as NSString).deletingPathExtension + ".html")
        let result = try RewindBinary.run(["report", log, "--output", page.path])
        #expect(result.status == 0, "\(result.stderr)")
        return page
    }

    /// Runs `body` with a browser on `page` at `fragment`, closing it whatever happens; the page
    /// must log no error.
    static func withBrowser(on page: URL, at fragment: String, _ body: (Browser) async throws -> Void) async throws {
        let browser = try await Browser.launch()
        do {
            try await browser.open(URL(string: page.absoluteString + "#" + fragment)!)
            try await browser.waitUntil("return document.body.dataset.ready === 'true'")
            try await body(browser)
            #expect(try await browser.consoleErrors() == [])
        } catch {
            try? await browser.close()
            throw error
        }
        try await browser.close()
    }

    /// The text of every element `selector` matches, in document order.
    static func texts(_ browser: Browser, _ selector: String) async throws -> [String] {
        let value = try await browser.evaluate("return Array.from(document.querySelectorAll(arguments[0]), (e) => e.textContent)", [.string(selector)])
        return value.array?.compactMap(\.string) ?? []
    }

    static func fragment(_ browser: Browser) async throws -> String {
        try await browser.evaluate("return location.hash").string ?? ""
    }

    /// The action filter's placeholder.
    static func placeholder(_ browser: Browser) async throws -> String {
        try await browser.evaluate("return document.getElementById('filter-action').placeholder").string ?? ""
    }

    /// What `rewind diff` prints for the same steps, without its header line.
    static func cliDiff(_ log: String, _ from: Int, _ to: Int, session: Int) throws -> [String] {
        let result = try RewindBinary.run(["diff", log, String(from), String(to), "-s", String(session)])
        #expect(result.status == 0, "\(result.stderr)")
        return Array(result.stdout.split(separator: "\n").dropFirst().map(String.init))
    }

    @Test func theFragmentsStepShowsItsActionItsStateAndItsDiff() async throws {
        let folder = try TemporaryDirectory()
        let (log, page) = try await Self.demoReport(in: folder)
        try await Self.withBrowser(on: page, at: "session=2&step=8&field=errorMessage") { browser in
            #expect(try await Self.texts(browser, "#step-info .headline") == ["Step 8  login  didTapLogin"])
            #expect(try await Self.texts(browser, "#history td.num") == ["0", "8", "9"])
            #expect(try await Self.texts(browser, ".session-tab[aria-selected=true] .name") == ["#2 login-invalid-then-fixed"])
            #expect(
                try await Self.texts(browser, "#state .leaf.added") == [
                    #"errorMessage: "Please correct the highlighted fields.""#, "isPasswordValid: false", "isUsernameValid: false",
                ])
            #expect(try await Self.texts(browser, "#diff-title") == ["Diff: step 7 → 8"])
            #expect(try await Self.texts(browser, "#diff .diff-line") == (try Self.cliDiff(log, 7, 8, session: 2)))
            #expect(try await Self.texts(browser, "#timeline .row.selected .step") == ["8"])
            #expect(try await Self.texts(browser, "#step-label") == ["step 8 of 28"])
            try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
            try await browser.screenshot(to: Self.screenshots.appendingPathComponent("step-8.png").path)
        }
    }

    @Test func keysStepThroughTheSessionAndTheFragmentFollows() async throws {
        let folder = try TemporaryDirectory()
        let (_, page) = try await Self.demoReport(in: folder)
        try await Self.withBrowser(on: page, at: "session=2&step=8") { browser in
            let headline = { try await Self.texts(browser, "#step-info .headline").first ?? "" }
            try await browser.press(.arrowRight)
            #expect(try await headline() == #"Step 9  login  didUpdateUsername("a")"#)
            #expect(try await Self.fragment(browser) == "#session=2&step=9")
            try await browser.type("jj")
            #expect(try await Self.fragment(browser) == "#session=2&step=11")
            try await browser.type("k")
            try await browser.press(.arrowLeft)
            #expect(try await Self.fragment(browser) == "#session=2&step=9")
            try await browser.press(.end)
            #expect(try await headline() == "Step 28  login  output(userDidLogin(…))")
            try await browser.press(.home)
            #expect(try await headline() == "Step 0: the initial state")
            #expect(try await Self.texts(browser, "#diff") == ["the first state: nothing before it to compare with"])
        }
    }

    @Test func theSliderSelectsAStep() async throws {
        let folder = try TemporaryDirectory()
        let (_, page) = try await Self.demoReport(in: folder)
        try await Self.withBrowser(on: page, at: "session=2&step=1") { browser in
            try await browser.setValue(css: "#scrubber", value: "20")
            #expect(try await Self.fragment(browser) == "#session=2&step=20")
            #expect(try await Self.texts(browser, "#step-label") == ["step 20 of 28"])
            try await browser.dragSlider(css: "#scrubber", to: 1)
            #expect(try await Self.fragment(browser) == "#session=2&step=28")
            try await browser.dragSlider(css: "#scrubber", to: 0)
            #expect(try await Self.fragment(browser) == "#session=2&step=0")
        }
    }

    @Test func everyStepsDiffIsTheCommandLinesAcrossAppFull() async throws {
        let folder = try TemporaryDirectory()
        let (log, page) = try await Self.demoReport(in: folder)
        try await Self.withBrowser(on: page, at: "session=7&step=1") { browser in
            for step in 1...44 {
                let shown = try await Self.texts(browser, "#diff > div")
                let printed = try Self.cliDiff(log, step - 1, step, session: 7)
                #expect(shown == printed, "step \(step)")
                try await browser.press(.arrowRight)
            }
        }
    }

    @Test func aPinnedStepIsDiffedAgainstAndKeptInTheFragment() async throws {
        let folder = try TemporaryDirectory()
        let (log, page) = try await Self.demoReport(in: folder)
        try await Self.withBrowser(on: page, at: "session=2&step=20&pin=8") { browser in
            #expect(try await Self.texts(browser, "#diff-title") == ["Diff: pinned step 8 → 20"])
            #expect(try await Self.texts(browser, "#diff .diff-line") == (try Self.cliDiff(log, 8, 20, session: 2)))
            #expect(try await Self.texts(browser, "#pin") == ["Unpin 8"])
            try await browser.press(.arrowRight)
            #expect(try await Self.fragment(browser) == "#session=2&step=21&pin=8")
            try await browser.type("p")
            #expect(try await Self.fragment(browser) == "#session=2&step=21")
            #expect(try await Self.texts(browser, "#diff-title") == ["Diff: step 20 → 21"])
            try await browser.emulateColorScheme("dark")
            try await browser.evaluate("location.hash = '#session=2&step=20&pin=8'")
            try await browser.waitUntil("return document.getElementById('diff-title').textContent.startsWith('Diff: pinned')")
            #expect(try await browser.evaluate("return getComputedStyle(document.body).backgroundColor") == "rgb(13, 17, 23)")
            try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
            try await browser.screenshot(to: Self.screenshots.appendingPathComponent("pinned-diff-dark.png").path)
            try await browser.emulateColorScheme("light")
            #expect(try await browser.evaluate("return getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)")
        }
    }

    @Test func clickingAFieldListsEveryStepThatChangedIt() async throws {
        let folder = try TemporaryDirectory()
        let (log, page) = try await Self.demoReport(in: folder)
        try await Self.withBrowser(on: page, at: "session=3&step=21") { browser in
            try await browser.evaluate(
                "Array.from(document.querySelectorAll('#state .key')).find((k) => k.textContent === 'status').click()")
            #expect(try await Self.fragment(browser) == "#session=3&step=21&field=status")
            #expect(try await Self.texts(browser, "#history-title") == ["History of status"])
            let rows = try await browser.evaluate(
                "return Array.from(document.querySelectorAll('#history tr'), (r) => Array.from(r.cells, (c) => c.textContent))")
            let cli = try await RewindBinary.run(["history", log, "status", "-s", "3"])
            let expected = cli.stdout.split(separator: "\n").map { line in
                line.split(separator: " ", omittingEmptySubsequences: true).first.map(String.init) ?? ""
            }
            #expect(rows.array?.compactMap { $0[0]?.string } == expected)
            #expect(rows[4]?.array == ["21", "loginResponse(success(…))", #""inFlight" → "succeeded""#])
            #expect(try await Self.texts(browser, "#history tr.current td.num") == ["21"])
        }
    }

    @Test func theFilterKeepsMatchingStepsAndSteppingSkipsTheRest() async throws {
        let folder = try TemporaryDirectory()
        let (_, page) = try await Self.demoReport(in: folder)
        try await Self.withBrowser(on: page, at: "session=2&step=0") { browser in
            #expect(try await Self.placeholder(browser) == "did*", "the session's commonest first word")
            try await browser.click(css: "#filter-action")
            try await browser.type("didTap*")
            try await browser.evaluate("document.activeElement.blur()")
            #expect(try await Self.texts(browser, "#filter-count") == ["2 of 28 steps match"])
            #expect(try await Self.texts(browser, "#timeline .row .action") == ["(initial state)", "didTapLogin", "didTapLogin"])
            try await browser.press(.arrowRight)
            #expect(try await Self.fragment(browser) == "#session=2&step=8&action=didTap*")
            try await browser.press(.arrowRight)
            #expect(try await Self.fragment(browser) == "#session=2&step=26&action=didTap*")
            try await browser.setValue(css: "#filter-origin", value: "login")
            #expect(try await Self.fragment(browser) == "#session=2&step=26&action=didTap*&origin=login")
        }
    }

    @Test func causeAndEffectHighlightEachOther() async throws {
        let folder = try TemporaryDirectory()
        let (_, page) = try await Self.demoReport(in: folder)
        try await Self.withBrowser(on: page, at: "session=2&step=27") { browser in
            #expect(try await Self.texts(browser, "#timeline .row.related .step") == ["26", "28"])
            let meta = try await Self.texts(browser, "#step-info > .meta")
            #expect(meta == ["+4.980s · the result of step 26 · its effect answered at step 28"])
            try await browser.evaluate("Array.from(document.querySelectorAll('#step-info .meta a')).find((a) => a.textContent === '26').click()")
            #expect(try await Self.fragment(browser) == "#session=2&step=26")
            #expect(try await Self.texts(browser, "#timeline .row.related .step") == ["27"])
        }
    }

    @Test func hostileStringsAreShownAsTextAndRunNothing() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("hostile.rewind")
        let long = String(repeating: "x", count: 100_000)
        let hostile = [
            "</script><script>alert(1)</script>", "<img src=x onerror=alert(1)>",
            "<img src=x onerror=\"window.pwned=1\">", "</script><script>window.pwned=2</script>", long,
        ]
        try await LoginSessions.record(usernames: hostile, name: "<b>hostile</b>", into: log)
        let page = folder.path("hostile.html")
        #expect(try await RewindBinary.run(["report", log, "--output", page]).status == 0)
        try await Self.withBrowser(on: URL(fileURLWithPath: page), at: "session=1&step=1") { browser in
            #expect(try await Self.texts(browser, ".session-tab .name") == ["#1 <b>hostile</b>"])
            for (index, text) in hostile.dropLast().enumerated() {
                let expected = "username: " + String(decoding: try JSONEncoder().encode(text), as: UTF8.self).replacingOccurrences(of: "\\/", with: "/")
                let leaves = try await Self.texts(browser, "#state .leaf")
                #expect(leaves.contains(expected), "step \(index + 1): \(leaves)")
                try await browser.press(.arrowRight)
            }
            #expect(try await browser.evaluate("return window.pwned === undefined") == true)
            #expect(try await browser.evaluate("return document.querySelectorAll('img, b, script:not([id])').length") == 1, "only the page's script")
            try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
            try await browser.screenshot(to: Self.screenshots.appendingPathComponent("hostile-strings.png").path)
            let leaf = try await browser.evaluate("return document.querySelector('#state .leaf.changed .string').textContent.length")
            #expect(leaf == 403, "the 100,000 characters cut to 400, in quotes, and an ellipsis")
            try await browser.click(css: "#state .leaf.changed .more")
            #expect(try await browser.evaluate("return document.querySelector('#state .leaf.changed .string').textContent.length") == 100_002)
            try await browser.press(.arrowLeft)
            #expect(try await Self.fragment(browser) == "#session=1&step=4", "the page still steps")
        }
    }

    @Test func aFailedReplaysReportShowsBothStatesSideBySide() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("older.rewind")
        try await ReplayCommandTests.recordOlderLogin(into: log)
        let reports = folder.path("reports")
        let replay = try await RewindBinary.run(["replay", log, "--report", reports])
        #expect(replay.status == 1)
        let page = reports + "/older-1-older.html"
        #expect(replay.stdout.hasSuffix("  report: \(page)\n"), "\(replay.stdout)")
        try await Self.withBrowser(on: URL(fileURLWithPath: page), at: "") { browser in
            #expect(try await Self.fragment(browser) == "#session=1&step=2", "opened at the failing step")
            #expect(
                try await Self.texts(browser, "#comparison .headline") == [
                    "Replay diverged at step 2 (login  didTapLogin): the current reducer gives another state"
                ])
            #expect(try await Self.texts(browser, "#comparison h3") == ["recorded", "replayed", "recorded → replayed"])
            #expect(
                try await Self.texts(browser, "#comparison .leaf.changed") == [
                    #"errorMessage: "Fix the fields.""#, #"errorMessage: "Please correct the highlighted fields.""#,
                ])
            #expect(
                try await Self.texts(browser, "#comparison .diff-line") == [#"~ errorMessage: "Fix the fields." → "Please correct the highlighted fields.""#])
            #expect(try await Self.texts(browser, ".session-tab .failed") == ["replay failed"])
            try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
            try await browser.screenshot(to: Self.screenshots.appendingPathComponent("replay-divergence.png").path)
            try await browser.press(.arrowRight)
            #expect(try await Self.texts(browser, "#comparison .away") == ["Replay diverged at step 2 · show the comparison"])
            #expect(try await Self.texts(browser, "#comparison .sides").isEmpty)
            try await browser.click(css: "#comparison .away a")
            #expect(try await Self.fragment(browser) == "#session=1&step=2", "the link leads back to the failing step")
            #expect(try await Self.texts(browser, "#comparison h3") == ["recorded", "replayed", "recorded → replayed"])
        }
    }

    @Test func aFailedReplaysReportListsTheWorkAStepNoLongerStartsAsText() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("chatty.rewind")
        try await ReplayCommandTests.recordChattyLogin(into: log)
        let reports = folder.path("reports")
        let replay = try await RewindBinary.run(["replay", log, "--report", reports])
        #expect(replay.status == 1)
        let page = reports + "/chatty-1-chatty.html"
        #expect(replay.stdout.hasSuffix("  report: \(page)\n"), "\(replay.stdout)")
        try await Self.withBrowser(on: URL(fileURLWithPath: page), at: "") { browser in
            #expect(try await Self.fragment(browser) == "#session=1&step=1", "opened at the failing step")
            #expect(
                try await Self.texts(browser, "#comparison .headline") == [
                    "Replay diverged at step 1 (login  didUpdateUsername): the current reducer asks for other work"
                ])
            #expect(try await Self.texts(browser, "#comparison h3") == ["recorded → replayed"])
            // The name as text, its control and bidirectional characters as escapes.
            #expect(
                try await Self.texts(browser, "#comparison .behaviour li") == [
                    #"no longer starts "<img src=x onerror=window.pwned=1>\u202e\u001b[31m""#
                ])
            #expect(try await Self.texts(browser, "#comparison .sides").isEmpty)
            #expect(try await browser.evaluate("return window.pwned === undefined") == true)
            #expect(try await browser.evaluate("return document.querySelectorAll('#comparison img').length") == 0)
            try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
            try await browser.screenshot(to: Self.screenshots.appendingPathComponent("replay-behaviour.png").path)
        }
    }

    @Test func aLongSessionDrawsOnlyTheRowsInView() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("long.rewind")
        #expect(try await RewindBinary.run(["record", "login", "--random", "--seed", "3", "--steps", "3000", "--output", log]).status == 0)
        let page = folder.path("long.html")
        #expect(try await RewindBinary.run(["report", log, "--output", page]).status == 0)
        try await Self.withBrowser(on: URL(fileURLWithPath: page), at: "session=1&step=2500") { browser in
            let drawn = try await browser.evaluate("return document.querySelectorAll('#timeline .row').length").int ?? 0
            #expect(drawn > 10 && drawn < 100, "\(drawn) rows drawn of 3001")
            #expect(try await Self.texts(browser, "#timeline .row.selected .step") == ["2500"])
            let visible = try await browser.evaluate(
                """
                const row = document.querySelector('#timeline .row.selected').getBoundingClientRect();
                const pane = document.getElementById('timeline').getBoundingClientRect();
                return row.top >= pane.top && row.bottom <= pane.bottom;
                """)
            #expect(visible == true, "the selected row is scrolled into view")
            try await browser.press(.end)
            #expect(try await Self.texts(browser, "#timeline .row.selected .step") == ["3000"])
        }
    }

    /// A session a log's retention trimmed: the tab and the first row say what is not kept, and
    /// the first kept step is shown whole, not as changes from a state the page does not have.
    @Test func aTrimmedSessionStartsFromItsFirstKeptStepShownWhole() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("flight.rewind")
        #expect(try await RewindBinary.run(["record", "login", "--random", "--steps", "3000", "--retain-steps", "300", "--output", log]).status == 0)
        let page = try Self.report(of: log)
        try await Self.withBrowser(on: page, at: "session=1&step=2560") { browser in
            #expect(try await Self.texts(browser, ".session-tab .meta").first?.contains(" · steps 1–2,559 not kept") == true)
            #expect(try await Self.texts(browser, "#timeline .row.gap .step").first == "1–2559")
            #expect(try await Self.texts(browser, "#timeline .row.gap .changes").first == "steps not kept")
            #expect(try await Self.texts(browser, "#timeline .row.initial .action") == ["(not kept)"])
            #expect(try await Self.texts(browser, "#timeline .row.selected .step") == ["2560"])
            #expect(try await Self.texts(browser, "#timeline .row.selected .changes") == ["(the whole state: the steps before are missing)"])
            #expect(try await Self.texts(browser, "#diff") == ["the steps before are missing: step 2560 is shown whole"])
            try await browser.press(.arrowRight)
            #expect(try await Self.fragment(browser) == "#session=1&step=2561")
            #expect(try await Self.texts(browser, "#diff .diff-line") == (try Self.cliDiff(log, 2560, 2561, session: 1)))
            try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
            try await browser.screenshot(to: Self.screenshots.appendingPathComponent("trimmed.png").path)
        }
    }

    /// Issue 32's check: numbers a JavaScript number cannot hold are shown and compared as the
    /// log stores them, a right-to-left override is neutralised, and a null initial state is
    /// `null`.
    @Test func exactNumbersANullInitialStateAndAnOverriddenNameAreShownAsRecorded() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("exact.rewind")
        try await ExactValueSessions.record(into: log)
        let page = try Self.report(of: log)
        try await Self.withBrowser(on: page, at: "session=1&step=2") { browser in
            let leaves = try await Self.texts(browser, "#state .leaf")
            #expect(leaves.contains("big: 9007199254740993") && leaves.contains("widest: 9223372036854775807"), "\(leaves)")
            #expect(leaves.contains("zero: -0.0"), "\(leaves)")
            let shown = try await Self.texts(browser, "#diff .diff-line")
            #expect(shown == (try Self.cliDiff(log, 1, 2, session: 1)), "\(shown)")
            // Emoji and a combining accent are counted alike on both, and `é` → `e` + U+0301 is
            // a change on both.
            #expect(shown.contains(#"~ faces: "…😀😀😀😀😀😀😀😀" → "…😀😀😀😀😀😀😀😀!" (from character 2,001)"#), "\(shown)")
            #expect(shown.contains("~ accent: \"…xxxxxxxx\u{E9}\" → \"…xxxxxxxxe\u{301}\" (from character 2,001)"), "\(shown)")
            #expect(shown.contains { $0.contains("items[id=9007199254740995].title") })
            try await browser.click(css: "#expand-all")
            let all = try await Self.texts(browser, "#state .leaf")
            #expect(all.contains(#""": "empty""#) && all.contains(#""[id=3]": "bracket""#), "odd keys are quoted: \(all)")
            let long = "\"" + String(repeating: "k", count: 80) + "\"… (10,000 characters): \"long\""
            #expect(all.contains(long), "a 10,000-character key is cut")
            // A tooltip is an attribute, and text too: the key's U+202E shows as its escape there.
            let titles = try await browser.evaluate("return [...document.querySelectorAll('[title]')].map(e => e.title).join('\\n')").string ?? ""
            #expect(titles.contains("rtl\\u202e") && !titles.contains("\u{202E}"), "\(titles.prefix(400))")
            try await browser.press(.arrowRight)
            let headline = try await Self.texts(browser, "#step-info .headline").first ?? ""
            #expect(headline.contains("didTap\\u202egnp.exe") && !headline.contains("\u{202E}"), "\(headline)")
            let row = try await Self.texts(browser, "#timeline .row.selected .action")
            #expect(row == ["didTap\\u202egnp.exe"], "\(row)")
            let note = #"note: "…xxxxxxxx" → "…xxxxxxxx!" (from character 2,001)"#
            #expect(try await Self.texts(browser, "#diff .diff-line").contains { $0.hasSuffix(note) }, "the strings are cut where they differ")
            // Raw JSON holds the values as the log does; a search marks what it finds.
            try await browser.press(.arrowLeft)
            try await browser.click(css: "#raw-toggle")
            let raw = try await Self.texts(browser, "#raw").first ?? ""
            #expect(raw.contains(#""big": 9007199254740993,"#) && raw.contains(#""zero": -0.0"#), "\(raw.prefix(300))")
            #expect(raw.hasPrefix("{\n  \"") && raw.contains("\n  \"big\": 9007199254740993,\n"), "one value a line: \(raw.prefix(300))")
            #expect(raw.contains(#"    "rtl\u202e": "a\nb\u202ec""#) && !raw.contains("\u{202E}"), "U+202E written as its escape")
            try await browser.click(css: "#raw-toggle")
            try await browser.type("/bracket")
            #expect(try await Self.texts(browser, "#search-result") == ["1 here"])
            #expect(try await Self.texts(browser, "#state .leaf.found") == [#""[id=3]": "bracket""#])
            #expect(try await Self.fragment(browser) == "#session=1&step=2&find=bracket")
            try await browser.click(css: "#expand-all")
            #expect(try await browser.evaluate("return document.querySelectorAll('#state details:not([open])').length") == 0)
            try await browser.click(css: "#collapse-all")
            #expect(try await browser.evaluate("return document.querySelectorAll('#state details[open]').length") == 0)
            try await browser.click(css: "#timeline")
            try await browser.press(.home)
            #expect(try await Self.texts(browser, "#state") == ["null"])
            try await browser.press(.arrowRight)
            #expect(try await Self.texts(browser, "#diff .diff-line") == (try Self.cliDiff(log, 0, 1, session: 1)))
        }
    }

    /// The action filter (a glob that backtracked for seconds as a regular expression answers
    /// at once, case does not matter, a selected step the filter hides is named), a link to a
    /// session the page does not hold, a diff of one step in two sessions, play and pause, and
    /// an action's payload in sight.
    @Test func filtersLinksTwoSessionDiffsAndPlay() async throws {
        let folder = try TemporaryDirectory()
        let (log, page) = try await Self.demoReport(in: folder)
        try await Self.withBrowser(on: page, at: "session=2&step=8&action=didtap*") { browser in
            let count = try await Self.texts(browser, "#filter-count").first ?? ""
            #expect(count.hasSuffix(" steps match"), "\(count): step 8 is didTapLogin, which matches")
            try await browser.press(.arrowRight)
            #expect(try await Self.texts(browser, "#timeline .row.selected .action").allSatisfy { $0.hasPrefix("didTap") })
        }
        let slow = "*a*a*a*a*a*a*a*a*a*a*b"
        try await Self.withBrowser(on: page, at: "session=2&step=8&action=\(slow)") { browser in
            // The page got ready at all: the regular expression held it for 15 s a filter.
            let count = try await Self.texts(browser, "#filter-count").first ?? ""
            #expect(count == "0 of 28 steps match · step 8, selected, does not match", "\(count)")
        }
        try await Self.withBrowser(on: page, at: "session=99&step=3") { browser in
            let notice = try await Self.texts(browser, "#sessions .notice")
            #expect(notice == ["no session #99 here: showing #1"])
        }
        // The same step of two sessions, diffed as `rewind diff` does across recordings.
        try await Self.withBrowser(on: page, at: "session=2&step=8&against=1:8") { browser in
            #expect(try await Self.texts(browser, "#diff-title") == ["Diff: #1 login-happy step 8 → #2 login-invalid-then-fixed step 8"])
            let cli = try await RewindBinary.run(["diff", "\(log):login-happy:8", "\(log):login-invalid-then-fixed:8"])
            #expect(try await Self.texts(browser, "#diff .diff-line") == Array(cli.stdout.split(separator: "\n").dropFirst().map(String.init)))
        }
        // Play steps on by itself until paused.
        try await Self.withBrowser(on: page, at: "session=2&step=1") { browser in
            try await browser.click(css: "#timeline")
            try await browser.press(.space)
            _ = try await browser.waitUntil("return location.hash !== '#session=2&step=1'")
            try await browser.press(.space)
            #expect(try await browser.evaluate("return document.getElementById('play').getAttribute('aria-pressed')") == "false")
        }
        // An action's payload is in sight without a click.
        try await Self.withBrowser(on: page, at: "session=2&step=9") { browser in
            let payload = try await Self.texts(browser, "#step-info .leaf")
            #expect(payload.contains(#"_0: "a""#), "\(payload)")
        }
    }

    /// States rebuilt by jumps in any order, and asked for again after later jumps, read as
    /// `rewind show` prints them: a rebuild changes in place only what it copied itself, never
    /// a state it kept or one the timeline holds.
    @Test func statesRebuiltInAnyOrderReadAsTheCommandLineShowsThem() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("renames.rewind")
        try await RenamingSessions.record(into: log)
        let steps = [600, 550, 699, 33, 64, 65, 500, 290, 291, 289, 1, 700]
        var expected: [Int: String] = [:]
        for step in steps {
            let shown = try await RewindBinary.run(["show", log, String(step), "--json"])
            #expect(shown.status == 0, "\(shown.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
            expected[step] = try Self.canonical(try #require(object["state"]))
        }
        let page = try Self.report(of: log)
        try await Self.withBrowser(on: page, at: "session=1&step=\(steps[0])") { browser in
            try await browser.click(css: "#raw-toggle")
            for step in steps + steps.reversed() {
                _ = try await browser.evaluate("location.hash = arguments[0]; return null", [.string("#session=1&step=\(step)")])
                try await browser.waitUntil("return document.getElementById('step-label').textContent.startsWith('step \(step) of')")
                let raw = try #require(try await Self.texts(browser, "#raw").first)
                guard let state = try? JSONSerialization.jsonObject(with: Data(raw.utf8), options: [.fragmentsAllowed]) else {
                    Issue.record("step \(step): the raw view is not JSON: \(raw.prefix(200))")
                    continue
                }
                #expect(try Self.canonical(state) == expected[step], "step \(step)")
            }
        }
    }

    /// A JSON value as text with its keys sorted, to compare two encodings of one value.
    static func canonical(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
    }

    /// A change deep in a long list is drawn where it is, with its neighbours; the rest of the
    /// list waits behind buttons that draw it in place.
    @Test func theChangedElementOfALongListIsDrawnWithItsNeighbours() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("list.rewind")
        try await BigListSessions.record(into: log)
        let page = try Self.report(of: log)
        try await Self.withBrowser(on: page, at: "session=1&step=1") { browser in
            #expect(try await Self.texts(browser, "#state .leaf.changed") == [#"title: "renamed""#])
            let drawn = try await Self.texts(browser, "#state details details details > summary .key")
            #expect(drawn == ["[id=434]", "[id=435]", "[id=436]", "[id=437]", "[id=438]"], "\(drawn)")
            #expect(try await Self.texts(browser, "#state .more") == ["show 200 more of 433", "show 62 more of 62 (from 438)"])
            try await browser.click(css: "#state .more")
            #expect(try await Self.texts(browser, "#state .more").first == "show 200 more of 233 (from 200)")
            // The diff comes first, above the tree.
            let order = try await browser.evaluate(
                "return document.getElementById('diff-section').compareDocumentPosition(document.getElementById('state-section')) & 4")
            #expect(order == 4)
        }
    }

    @Test func anIdentifiedListIsDiffedAndFollowedById() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("todo.rewind")
        try await TodoListSessions.record(into: log)
        let page = URL(fileURLWithPath: folder.path("todo.html"))
        #expect(try await RewindBinary.run(["report", log, "--output", page.path]).status == 0)
        let field = #"items[id="b"].title"#
        // Every step's diff is the command line's: adds to an empty list and to a longer one (which
        // the page diffs without indexing the new list), a tick, deletes, a move, a rename.
        try await Self.withBrowser(on: page, at: "session=1&step=1") { browser in
            for step in 1...8 {
                #expect(try await Self.texts(browser, "#diff > div") == (try Self.cliDiff(log, step - 1, step, session: 1)), "step \(step)")
                try await browser.press(.arrowRight)
            }
        }
        try await Self.withBrowser(on: page, at: "session=1&step=4") { browser in
            #expect(try await Self.placeholder(browser) == "add*", "not the photo app's names")
            #expect(try await Self.texts(browser, "#diff .diff-line") == [#"~ items[id="b"].isDone: false → true"#])
            try await browser.press(.arrowRight)
            #expect(try await Self.texts(browser, "#diff .diff-line") == [#"- items[id="a"]: {"id":"a","isDone":false,"title":"Milk"}"#])
            #expect(try await Self.texts(browser, "#timeline .row.selected .changes") == [#"items[id="a"] − {3 fields}"#])
            try await browser.press(.arrowRight)
            #expect(try await Self.texts(browser, "#diff .diff-line") == [#"↕ items[id="c"]: moved [1] → [0]"#], "a move is one move")
            #expect(
                try await RewindBinary.run(["diff", log, "5", "6"]).stdout.hasSuffix("\n" + #"↕ items[id="c"]: moved [1] → [0]"# + "\n"),
                "as the command line says")
            try await browser.press(.arrowRight)
            let keys = try await Self.texts(browser, "#state .key")
            #expect(keys == ["items", #"[id="c"]"#, #"[id="b"]"#, "id", "isDone", "title"], "b, which changed, is open")
            try await browser.evaluate("document.querySelector(`#state .key[title='History of ${arguments[0]}']`).click()", [.string(field)])
            #expect(try await Self.fragment(browser) == "#session=1&step=7&field=items%5Bid%3D%22b%22%5D.title")
        }
        // A reload restores the field from the fragment, and its history follows b from index
        // 1 to 0 (a deleted) to 1 (c moved up) until b itself goes.
        try await Self.withBrowser(on: page, at: "session=1&step=7&field=items%5Bid%3D%22b%22%5D.title") { browser in
            #expect(try await Self.texts(browser, "#history-title") == ["History of \(field)"])
            let rows = try await browser.evaluate(
                "return Array.from(document.querySelectorAll('#history tr'), (r) => Array.from(r.cells, (c) => c.textContent))")
            #expect(
                rows.array?.map { $0.array?.compactMap(\.string) ?? [] } == [
                    ["0", "(initial)", "(absent)"],
                    ["2", #"add(id: "b", title: "Bread")"#, #"(absent) → "Bread""#],
                    ["7", #"rename(id: "b", title: "Rye bread")"#, #""Bread" → "Rye bread""#],
                    ["8", #"delete(id: "b")"#, #""Rye bread" → (absent)"#],
                ])
            #expect(try await Self.texts(browser, "#state .field-selected") == [#"title: "Rye bread""#])
        }
    }

    /// A list's history reads what changed inside it, on the page and on the command line alike.
    @Test func aListsHistoryReadsAsTheCommandLinesHistory() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("todo.rewind")
        try await TodoListSessions.record(into: log)
        let page = try Self.report(of: log)
        let cli = try await RewindBinary.run(["history", log, "items", "-s", "1"]).stdout.split(separator: "\n").map { line in
            // `    5  delete(id: "a")  items: [id="a"] − {3 fields}`: the step and what follows `items: `.
            let step = line.split(separator: " ").first.map(String.init) ?? ""
            let change = line.range(of: "items: ").map { String(line[$0.upperBound...]) } ?? ""
            return [step, change]
        }
        try await Self.withBrowser(on: page, at: "session=1&step=8&field=items") { browser in
            let rows = try await browser.evaluate(
                "return Array.from(document.querySelectorAll('#history tbody tr'), (r) => [r.cells[0].textContent, r.cells[2].textContent])")
            let shown = rows.array?.map { $0.array?.compactMap(\.string) ?? [] } ?? []
            #expect(shown == cli, "page and command line")
            #expect(shown.contains { $0.last == #"[id="a"] − {3 fields}"# }, "\(shown)")
        }
    }

    /// A field that changes at hundreds of steps: its history is built once, drawn around the
    /// change in effect at the selected step with the rest on demand, and follows the step.
    @Test func aLongHistoryIsDrawnAroundTheChangeInEffect() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("random.rewind")
        #expect(try await RewindBinary.run(["record", "login", "--random", "--seed", "5", "--steps", "3000", "--output", log]).status == 0)
        let changes = try await RewindBinary.run(["history", log, "status"]).stdout.split(separator: "\n").compactMap { line in
            line.split(separator: " ").first.flatMap { Int($0) }
        }
        let inEffect = try #require(changes.last { $0 <= 1500 })
        let index = try #require(changes.firstIndex(of: inEffect))
        #expect(index > 10 && index + 10 < changes.count - 1, "the rows drawn are a window: \(index) of \(changes.count)")
        let page = try Self.report(of: log)
        try await Self.withBrowser(on: page, at: "session=1&step=1500&field=status") { browser in
            #expect(try await Self.texts(browser, "#history .meta") == ["changed at \(changes.count - 1) steps"])
            #expect(try await Self.texts(browser, "#history tr.current td.num") == [String(inEffect)])
            var drawn = try await Self.texts(browser, "#history td.num").compactMap { Int($0) }
            #expect(drawn == Array(changes[(index - 10)...(index + 10)]), "10 changes each side")
            let earlier = index - 10
            let later = changes.count - index - 11
            #expect(
                try await Self.texts(browser, "#history td[colspan]") == [
                    "↑ \(min(earlier, 200)) earlier of \(earlier)", "↓ \(min(later, 200)) later of \(later)",
                ])

            try await browser.click(css: "#history td[colspan] a")
            drawn = try await Self.texts(browser, "#history td.num").compactMap { Int($0) }
            #expect(drawn == Array(changes[max(0, earlier - 200)...(index + 10)]), "the earlier rows are drawn")
            #expect(try await Self.texts(browser, "#history tr.current td.num") == [String(inEffect)])

            // The last step: its change in effect is past the rows drawn, which move to it.
            try await browser.press(.end)
            #expect(try await Self.texts(browser, "#history tr.current td.num") == [String(changes[changes.count - 1])])
            drawn = try await Self.texts(browser, "#history td.num").compactMap { Int($0) }
            #expect(drawn == Array(changes[(changes.count - 11)...]))
        }
    }

    /// In a wide window the diff sits beside the state's tree, at its top; in a narrow one it
    /// comes above the tree, and nothing is wider than the window.
    @Test func theDiffSitsBesideTheTreeWhenThereIsRoom() async throws {
        let folder = try TemporaryDirectory()
        let (_, page) = try await Self.demoReport(in: folder)
        try await Self.withBrowser(on: page, at: "session=3&step=21") { browser in
            let corners = """
                return ['diff-section', 'state-section'].map((id) => {
                  const rect = document.getElementById(id).getBoundingClientRect();
                  return [Math.round(rect.left), Math.round(rect.top)];
                })
                """
            let wide = try await browser.evaluate(corners).array?.map { $0.array?.compactMap(\.int) ?? [] } ?? []
            #expect(wide.count == 2 && wide[0][0] < wide[1][0] && wide[0][1] == wide[1][1], "side by side: \(wide)")

            try await browser.setViewport(width: 480, height: 800)
            try await browser.waitUntil("return innerWidth === 480")
            let narrow = try await browser.evaluate(corners).array?.map { $0.array?.compactMap(\.int) ?? [] } ?? []
            #expect(narrow.count == 2 && narrow[0][0] == narrow[1][0] && narrow[0][1] < narrow[1][1], "one above the other: \(narrow)")
            #expect(try await browser.evaluate("return document.documentElement.scrollWidth <= innerWidth") == true)
            try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
            try await browser.screenshot(to: Self.screenshots.appendingPathComponent("narrow.png").path)
        }
    }
}
