import Foundation
import RewindWebDriver
import Testing

/// The WebDriver client against a small page of our own in headless Chromium: scripts, keys,
/// a slider, clicks, the dark colour scheme, screenshots, fragments of file URLs, the console,
/// and that no browser process outlives its test.
///
/// Serialized: each test starts its own browser, and several at once on a small machine only
/// make each slower.
@Suite(.browser, .serialized)
struct BrowserTests {
    /// The page: keys move a counter (Shift by ten), the slider writes its value, the swatch
    /// turns white in the dark, and the fragment is shown, at load and when it changes.
    static let page = """
        <!doctype html>
        <html>
        <head>
        <meta charset="utf-8">
        <title>Browser test page</title>
        <style>
        #swatch { color: rgb(10, 20, 30); }
        @media (prefers-color-scheme: dark) { #swatch { color: rgb(250, 240, 230); } }
        </style>
        </head>
        <body>
        <p id="counter">0</p>
        <p id="typed"></p>
        <input id="slider" type="range" min="0" max="100" value="10" style="width: 400px">
        <p><span id="slider-value">10</span> after <span id="slider-changes">0</span> changes</p>
        <p id="swatch">swatch</p>
        <p id="text"></p>
        <p id="hash"></p>
        <button id="button" type="button">press</button> <span id="clicks">0</span>
        <script>
        const byID = (id) => document.getElementById(id);
        let count = 0;
        document.addEventListener('keydown', (event) => {
            const step = event.shiftKey ? 10 : 1;
            if (event.key === 'ArrowRight') count += step;
            if (event.key === 'ArrowLeft') count -= step;
            if (event.key === 'Home') count = 0;
            if (event.key.length === 1) byID('typed').textContent += event.key;
            byID('counter').textContent = String(count);
        });
        byID('slider').addEventListener('input', () => { byID('slider-value').textContent = byID('slider').value; });
        byID('slider').addEventListener('change', () => { byID('slider-changes').textContent = String(Number(byID('slider-changes').textContent) + 1); });
        byID('button').addEventListener('click', () => { byID('clicks').textContent = String(Number(byID('clicks').textContent) + 1); });
        byID('text').textContent = 'inserted <b>as text</b> & kept';
        const showHash = () => { byID('hash').textContent = location.hash; };
        window.addEventListener('hashchange', showHash);
        showHash();
        </script>
        </body>
        </html>
        """

    /// Writes the page into a fresh folder, starts a browser on it, runs `body` with the
    /// browser and the page's URL, and closes the browser whether `body` throws or not.
    static func withPage(_ body: (Browser, URL) async throws -> Void) async throws {
        let folder = try TemporaryDirectory()
        let url = URL(fileURLWithPath: folder.path("page.html"))
        try page.write(to: url, atomically: true, encoding: .utf8)
        let browser = try await Browser.launch()
        do {
            try await browser.open(url)
            try await body(browser, url)
        } catch {
            try? await browser.close()
            throw error
        }
        try await browser.close()
    }

    @Test func theBrowserIsInstalledWhereItIsRequired() {
        #expect(Browser.isAvailable, "REWIND_REQUIRE_BROWSER=1, but \(Browser.chromiumPath) or \(Browser.chromedriverPath) is missing")
    }

    @Test func scriptsReturnJSONValues() async throws {
        try await Self.withPage { browser, _ in
            #expect(try await browser.evaluate("return document.title") == "Browser test page")
            let mixed = try await browser.evaluate("return [1, 2.5, 'two', true, false, null, {a: [1]}, undefined]")
            #expect(mixed == [1, 2.5, "two", true, false, nil, ["a": [1]], nil])
            #expect(mixed[0]?.int == 1 && mixed[1]?.int == nil && mixed[3]?.bool == true, "1 is a number, true a Bool: \(mixed)")
            #expect(try await browser.evaluate("return arguments[0] + arguments[1].n", [40, ["n": 2]]) == 42)
            #expect(try await browser.evaluate("return arguments[0]", ["é \"quoted\" \n / \u{E014}"]) == "é \"quoted\" \n / \u{E014}")
            #expect(try await browser.evaluate("return new Promise((resolve) => setTimeout(() => resolve('later'), 10))") == "later")
            #expect(try await browser.evaluate("document.body.dataset.x = '1'") == nil, "no `return`: null")
        }
    }

    @Test func failuresAreWebDriverErrors() async throws {
        try await Self.withPage { browser, _ in
            let thrown = await #expect(throws: WebDriverError.self) { try await browser.evaluate("throw new Error('on purpose')") }
            #expect(thrown?.error == "javascript error", "\(String(describing: thrown))")
            #expect(thrown?.description.contains("on purpose") == true, "\(String(describing: thrown))")

            let missing = await #expect(throws: WebDriverError.self) { try await browser.click(css: "#missing") }
            #expect(missing?.status == 404 && missing?.error == "no such element", "\(String(describing: missing))")
            #expect(missing?.description.contains("#missing") == true, "\(String(describing: missing))")
        }
    }

    @Test func keysReachThePage() async throws {
        try await Self.withPage { browser, _ in
            try await browser.press(.arrowRight, .arrowRight)
            #expect(try await browser.elementText(css: "#counter") == "2")
            try await browser.press(.arrowLeft)
            #expect(try await browser.elementText(css: "#counter") == "1")
            try await browser.press(.arrowRight, holding: [.shift])
            #expect(try await browser.elementText(css: "#counter") == "11")
            try await browser.press(.home)
            #expect(try await browser.elementText(css: "#counter") == "0")
            try await browser.type("jk")
            #expect(try await browser.elementText(css: "#typed") == "jk")
        }
    }

    @Test func theSliderCanBeSetAndDragged() async throws {
        try await Self.withPage { browser, _ in
            try await browser.setValue(css: "#slider", value: "42")
            #expect(try await browser.elementText(css: "#slider-value") == "42")
            #expect(try await browser.elementText(css: "#slider-changes") == "1")

            try await browser.dragSlider(css: "#slider", to: 1)
            #expect(try await browser.elementText(css: "#slider-value") == "100")
            try await browser.dragSlider(css: "#slider", to: 0)
            #expect(try await browser.elementText(css: "#slider-value") == "0")
            try await browser.dragSlider(css: "#slider", to: 0.5)
            #expect(try await browser.elementText(css: "#slider-value") == "50")
            #expect(try await browser.elementText(css: "#slider-changes") == "4", "one `change` per drag, at the release")
        }
    }

    @Test func clicksAndTextContent() async throws {
        try await Self.withPage { browser, _ in
            try await browser.click(css: "#button")
            try await browser.click(css: "#button")
            #expect(try await browser.elementText(css: "#clicks") == "2")
            #expect(try await browser.elementText(css: "#text") == "inserted <b>as text</b> & kept")
            #expect(try await browser.evaluate("return document.querySelectorAll('#text b').length") == 0)
        }
    }

    @Test func theDarkColorSchemeChangesTheComputedColour() async throws {
        try await Self.withPage { browser, _ in
            let colour = "return getComputedStyle(document.getElementById('swatch')).color"
            try await browser.emulateColorScheme("light")
            #expect(try await browser.evaluate(colour) == "rgb(10, 20, 30)")
            try await browser.emulateColorScheme("dark")
            #expect(try await browser.evaluate(colour) == "rgb(250, 240, 230)")
            #expect(try await browser.evaluate("return matchMedia('(prefers-color-scheme: dark)').matches") == true)
            try await browser.emulateColorScheme("light")
            #expect(try await browser.evaluate(colour) == "rgb(10, 20, 30)")
        }
    }

    @Test func screenshotsArePNGs() async throws {
        try await Self.withPage { browser, _ in
            let folder = try TemporaryDirectory()
            let path = folder.path("page.png")
            try await browser.screenshot(to: path)
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "the PNG signature")
            #expect(data.count > 2_000, "\(data.count) bytes")
            // IHDR follows the signature: its width and height, big-endian, at bytes 16 and 20.
            let size = [16, 20].map { start in data[start..<start + 4].reduce(0) { $0 << 8 | Int($1) } }
            let viewport = try await browser.evaluate("return [innerWidth, innerHeight]")
            #expect(viewport.array?.compactMap(\.int) == size, "the page's viewport: \(size), \(viewport)")
            #expect(size.first == 1280, "the window is 1280 wide (the height is less than 900: headless keeps room for a toolbar)")
        }
    }

    @Test func aFileURLKeepsItsFragment() async throws {
        try await Self.withPage { browser, page in
            try await browser.open(try #require(URL(string: page.absoluteString + "#a=1")))
            #expect(try await browser.evaluate("return location.hash") == "#a=1")
            #expect(try await browser.currentURL() == page.absoluteString + "#a=1")
            #expect(try await browser.elementText(css: "#hash") == "#a=1", "the page's script saw it at load")

            // Another fragment of the same file is the same document: no reload, a `hashchange`.
            try await browser.evaluate("window.marker = 'same document'")
            try await browser.open(try #require(URL(string: page.absoluteString + "#a=2")))
            #expect(try await browser.elementText(css: "#hash") == "#a=2")
            #expect(try await browser.evaluate("return window.marker") == "same document")
        }
    }

    @Test func consoleErrorsAreReported() async throws {
        try await Self.withPage { browser, _ in
            #expect(try await browser.consoleErrors() == [], "the page itself logs nothing")
            try await browser.evaluate("console.log('only information'); console.error('something broke')")
            // The promise settles after the timer that throws: timers run in order.
            try await browser.evaluate("setTimeout(() => { throw new Error('uncaught'); }); return new Promise((resolve) => setTimeout(resolve))")
            let errors = try await browser.consoleErrors()
            #expect(errors.count == 2, "\(errors)")
            #expect(errors.contains { $0.contains("something broke") }, "\(errors)")
            #expect(errors.contains { $0.contains("Uncaught Error: uncaught") }, "\(errors)")
            #expect(try await browser.consoleErrors() == [], "each call takes what it returns")
        }
    }

    #if os(Linux)
    @Test func noBrowserProcessOutlivesItsBrowser() async throws {
        let closed = try await Browser.launch()
        let closedProcesses = (closed.driverProcessID, closed.profilePath)
        #expect(!Self.liveProcesses(group: closedProcesses.0, mentioning: closedProcesses.1).isEmpty, "the browser runs")
        try await closed.close()
        #expect(try await Self.noneLeft(group: closedProcesses.0, mentioning: closedProcesses.1), "after close()")

        // A test that fails before closing its browser drops it: `deinit` kills the processes.
        var dropped: Browser? = try await Browser.launch()
        let droppedProcesses = try #require(dropped.map { ($0.driverProcessID, $0.profilePath) })
        try await dropped?.open(URL(string: "about:blank")!)
        dropped = nil
        #expect(try await Self.noneLeft(group: droppedProcesses.0, mentioning: droppedProcesses.1), "after deinit")
    }

    /// Whether every process of `group` or with `text` on its command line is gone (killed
    /// processes take a moment to be). The minute only stops a hung test: a process that
    /// outlives its test is still there then, however loaded the machine.
    static func noneLeft(group: Int32, mentioning text: String) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while !liveProcesses(group: group, mentioning: text).isEmpty {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// The processes still running (zombies left out) in process group `group` or with `text`
    /// on their command line.
    static func liveProcesses(group: Int32, mentioning text: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            // `pid (name) state ppid pgrp ...`: the name may hold spaces, so split after its `)`.
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
                return false
            }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", fields[0] != "X" else { return false }
            let commandLine = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
            return Int32(fields[2]) == group || String(decoding: commandLine, as: UTF8.self).contains(text)
        }
    }
    #endif
}
