import Foundation

/// A headless Chromium driven through chromedriver with W3C WebDriver commands over HTTP: a
/// real browser for the tests of pages we generate and for `rewind bench`'s live page, without
/// Selenium.
///
/// One per test, used from that test only (not Sendable). `close()` ends it politely; if a
/// test fails first, `deinit` kills chromedriver's process group, which every browser process
/// is in, so no browser outlives its test.
public final class Browser {
    public static let chromiumPath = "/usr/bin/chromium"
    public static let chromedriverPath = "/usr/bin/chromedriver"

    /// Whether chromium and chromedriver are installed (Debian: `chromium`, `chromium-driver`).
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: chromiumPath) && FileManager.default.isExecutableFile(atPath: chromedriverPath)
    }

    /// Whether a missing browser is a failure rather than a reason to skip (CI sets
    /// `REWIND_REQUIRE_BROWSER=1`, so that the browser tests cannot silently stop running).
    public static var isRequired: Bool {
        ProcessInfo.processInfo.environment["REWIND_REQUIRE_BROWSER"] == "1"
    }

    /// How long a wait for the browser lasts before it fails: only a stop for a hung test, so
    /// generous that a loaded machine never reaches it (a page on an idle one settles within
    /// a second). Tests assert what a page shows, never how soon.
    public static let patience: Duration = .seconds(120)

    /// The key under which WebDriver names an element in JSON.
    public static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    /// chromedriver's process id, which is also the id of the group the browser's processes are in.
    public let driverProcessID: Int32
    /// The browser's main process, as chromedriver reports it.
    public let browserProcessID: Int32?
    /// The browser's profile folder; its path is on the command line of every browser process.
    public let profilePath: String

    /// Our folder: chromedriver's output, the profile, and the temporary files of both.
    private let folder: String
    private let driver: DriverProcess
    private let port: Int
    private let session: String
    private var closed = false

    private init(folder: String, driver: DriverProcess, port: Int, sessionID: String, browserProcessID: Int32?) {
        self.folder = folder
        self.driver = driver
        self.port = port
        self.session = "/session/\(sessionID)"
        self.driverProcessID = driver.pid
        self.browserProcessID = browserProcessID
        self.profilePath = folder + "/profile"
    }

    deinit {
        driver.end()
        try? FileManager.default.removeItem(atPath: folder)
    }

    // MARK: Starting and ending

    /// Starts chromedriver and a headless Chromium session with a fresh profile.
    ///
    /// Given port 0, chromedriver picks a free port for IPv4 and binds IPv6 to the same number,
    /// and exits when another process took it between the two (`bind() failed: Address already
    /// in use`): seen once in a CI run of 644 tests. That launch is tried again, twice at most.
    public static func launch() async throws -> Browser {
        guard isAvailable else {
            throw WebDriverError(
                command: "launch",
                message: "\(chromiumPath) or \(chromedriverPath) is missing: install the Debian packages chromium and chromium-driver"
            )
        }
        var attempt = 1
        while true {
            do {
                return try await launchOnce()
            } catch let error as WebDriverError where attempt < 3 && error.message.contains("Address already in use") {
                attempt += 1
            }
        }
    }

    private static func launchOnce() async throws -> Browser {
        let folder = try makeFolder()
        let logPath = folder + "/chromedriver.log"
        var driver: DriverProcess?
        do {
            // Port 0: chromedriver takes a free port and prints it, so parallel launches cannot collide.
            // TMPDIR: Chromium leaves a folder there when it is killed; this one goes with ours.
            let started = try DriverProcess(executable: chromedriverPath, arguments: ["--port=0"], logPath: logPath, environment: ["TMPDIR": folder])
            driver = started
            let port = try await waitForPort(of: started, logPath: logPath, timeout: patience)
            let answer = try await send(port, "POST", "/session", capabilities(profile: folder + "/profile"))
            guard let sessionID = answer["sessionId"]?.string else {
                throw WebDriverError(command: "POST /session", status: 200, message: "no session id in \(answer)")
            }
            let processID = answer["capabilities"]?["goog:processID"]?.int.map { Int32($0) }
            return Browser(folder: folder, driver: started, port: port, sessionID: sessionID, browserProcessID: processID)
        } catch {
            driver?.end()
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }

    /// What `launch` asks chromedriver for: headless Chromium in a 1280×900 window, on `profile`.
    private static func capabilities(profile: String) -> BrowserValue {
        let arguments: [BrowserValue] = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900",
            "--allow-file-access-from-files", .string("--user-data-dir=\(profile)"),
        ]
        return [
            "capabilities": [
                "alwaysMatch": [
                    "browserName": "chrome",
                    "goog:chromeOptions": [
                        "binary": .string(chromiumPath), "args": .array(arguments),
                        // The first tab opens on about:blank, not on the new-tab page, which now and then
                        // starts loading only five seconds later, and chromedriver waits for it before the
                        // first `open`. (A URL among `args` does not work: chromedriver makes it a switch.)
                        "prefs": ["session.restore_on_startup": 4, "session.startup_urls": ["about:blank"]],
                    ],
                    "goog:loggingPrefs": ["browser": "ALL"],
                    // Below our HTTP timeout, so that a stuck page is chromedriver's clear error, not ours.
                    "timeouts": ["script": 20_000, "pageLoad": 20_000],
                ]
            ]
        ]
    }

    /// A new folder of ours, with a short path: Chromium puts a socket in a folder in it, and a
    /// socket's path must stay under 108 bytes.
    private static func makeFolder() throws -> String {
        var template = Array((FileManager.default.temporaryDirectory.path + "/rewind-browser-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw WebDriverError(command: "launch", message: "cannot make a temporary folder: \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }

    /// Waits for chromedriver's "started successfully on port N" line and returns N.
    private static func waitForPort(of driver: DriverProcess, logPath: String, timeout: Duration) async throws -> Int {
        let deadline = ContinuousClock.now + timeout
        while true {
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            if let match = log.firstMatch(of: /started successfully on port (\d+)/), let port = Int(match.1) {
                return port
            }
            if driver.hasExited || ContinuousClock.now >= deadline {
                let reason = driver.hasExited ? "chromedriver ended" : "chromedriver did not start within \(timeout)"
                throw WebDriverError(command: "launch", message: "\(reason); its output: \(log)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Ends the session (chromedriver closes the browser), then chromedriver itself; whatever
    /// is left of them is killed.
    public func close() async throws {
        guard !closed else { return }
        defer {
            closed = true
            driver.end()
        }
        try await send("DELETE", "")
        // Not a W3C command: chromedriver's own, to end the server.
        _ = try? await Self.send(port, "GET", "/shutdown", nil)
        _ = await driver.waitForExit(timeout: .seconds(5))
    }

    // MARK: Pages and scripts

    /// Loads `url` and returns once the page has loaded (its `load` event).
    public func open(_ url: URL) async throws {
        try await send("POST", "/url", ["url": .string(url.absoluteString)])
    }

    public func currentURL() async throws -> String {
        try await send("GET", "/url").string ?? ""
    }

    /// Runs `script` as the body of a function in the page and returns what it returns
    /// (`return ...`); `arguments` are its `arguments`. A returned promise is awaited.
    @discardableResult
    public func evaluate(_ script: String, _ arguments: [BrowserValue] = []) async throws -> BrowserValue {
        try await send("POST", "/execute/sync", ["script": .string(script), "args": .array(arguments)])
    }

    /// Evaluates `script` until its result is truthy, and returns that result: for pages that
    /// settle later (timers, fetches, animation frames). Throws after `timeout`, which only
    /// stops a hung test (``patience``).
    @discardableResult
    public func waitUntil(_ script: String, _ arguments: [BrowserValue] = [], timeout: Duration = Browser.patience) async throws -> BrowserValue {
        let deadline = ContinuousClock.now + timeout
        while true {
            let value = try await evaluate(script, arguments)
            if value.isTruthy { return value }
            guard ContinuousClock.now < deadline else {
                throw WebDriverError(command: "waitUntil", message: "`\(script)` still gave \(value) after \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The messages the page logged at error level (`console.error`, uncaught exceptions,
    /// failed loads) since the last call: each call takes the log it returns.
    public func consoleErrors() async throws -> [String] {
        let entries = try await send("POST", "/se/log", ["type": "browser"]).array ?? []
        return entries.filter { $0["level"]?.string == "SEVERE" }.compactMap { $0["message"]?.string }
    }

    // MARK: Keys, clicks and fields

    /// A key that is not a character, by the code point WebDriver gives it.
    public enum Key: String, Sendable {
        case backspace = "\u{E003}"
        case tab = "\u{E004}"
        case enter = "\u{E007}"
        case shift = "\u{E008}"
        case control = "\u{E009}"
        case alt = "\u{E00A}"
        case escape = "\u{E00C}"
        case space = "\u{E00D}"
        case pageUp = "\u{E00E}"
        case pageDown = "\u{E00F}"
        case end = "\u{E010}"
        case home = "\u{E011}"
        case arrowLeft = "\u{E012}"
        case arrowUp = "\u{E013}"
        case arrowRight = "\u{E014}"
        case arrowDown = "\u{E015}"
        case delete = "\u{E017}"
        case meta = "\u{E03D}"
    }

    /// Presses and releases each key in turn, with `modifiers` (`.shift`, ...) held throughout.
    /// The keys go to the focused element, or the page's body.
    public func press(_ keys: Key..., holding modifiers: [Key] = []) async throws {
        let down = modifiers.map { Self.keyAction("keyDown", $0.rawValue) }
        let up = modifiers.reversed().map { Self.keyAction("keyUp", $0.rawValue) }
        try await performKeys(down + keys.flatMap { [Self.keyAction("keyDown", $0.rawValue), Self.keyAction("keyUp", $0.rawValue)] } + up)
    }

    /// Types `text` a character at a time, as key presses (so `keydown` handlers see each one).
    public func type(_ text: String) async throws {
        try await performKeys(text.flatMap { [Self.keyAction("keyDown", String($0)), Self.keyAction("keyUp", String($0))] })
    }

    private static func keyAction(_ type: String, _ value: String) -> BrowserValue {
        ["type": .string(type), "value": .string(value)]
    }

    private func performKeys(_ actions: [BrowserValue]) async throws {
        try await send("POST", "/actions", ["actions": [["type": "key", "id": "keyboard", "actions": .array(actions)]]])
    }

    /// Clicks the middle of the first element that matches `selector`, as a mouse would.
    public func click(css selector: String) async throws {
        let id = try await element(css: selector)
        try await send("POST", "/element/\(id)/click")
    }

    /// The text of the first element that matches `selector`, as rendered (WebDriver's
    /// "visible text": hidden parts left out, CSS `text-transform` applied).
    public func elementText(css selector: String) async throws -> String {
        let id = try await element(css: selector)
        return try await send("GET", "/element/\(id)/text").string ?? ""
    }

    /// Sets the `value` of the input that matches `selector` and sends `input` then `change`,
    /// as a person's edit would: for a range input, a slider moved to `value`.
    public func setValue(css selector: String, value: String) async throws {
        let script = """
            const field = document.querySelector(arguments[0]);
            if (!field) throw new Error('no element matches ' + arguments[0]);
            field.value = arguments[1];
            field.dispatchEvent(new Event('input', { bubbles: true }));
            field.dispatchEvent(new Event('change', { bubbles: true }));
            """
        try await evaluate(script, [.string(selector), .string(value)])
    }

    /// Drags the thumb of the range input that matches `selector` with the mouse, from its
    /// place to `fraction` of the input's width (0 is the left end, 1 the right).
    ///
    /// Approximate between the ends: the thumb's own width makes the track shorter than the
    /// input. 0, 0.5 and 1 give the minimum, middle and maximum.
    public func dragSlider(css selector: String, to fraction: Double) async throws {
        let id = try await element(css: selector)
        let width = try await send("GET", "/element/\(id)/rect")["width"]?.number ?? 0
        let origin: BrowserValue = [Self.elementKey: .string(id)]
        let place = try await evaluate("const s = arguments[0]; return (s.value - s.min) / ((s.max - s.min) || 1);", [origin])
        let position = place.number ?? 0
        // Whole pixels from the element's centre, kept a pixel inside its edges.
        func offset(_ fraction: Double) -> BrowserValue {
            .number(((min(max(fraction, 0), 1) - 0.5) * max(width - 2, 0)).rounded())
        }
        let actions: BrowserValue = [
            ["type": "pointerMove", "duration": 0, "origin": origin, "x": offset(position), "y": 0],
            ["type": "pointerDown", "button": 0],
            ["type": "pointerMove", "duration": 100, "origin": origin, "x": offset(fraction), "y": 0],
            ["type": "pointerUp", "button": 0],
        ]
        try await send("POST", "/actions", ["actions": [["type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"], "actions": actions]]])
    }

    /// The WebDriver id of the first element that matches `selector`.
    private func element(css selector: String) async throws -> String {
        let found = try await send("POST", "/element", ["using": "css selector", "value": .string(selector)])
        guard let id = found[Self.elementKey]?.string else {
            throw WebDriverError(command: "find \(selector)", status: 200, message: "no element id in \(found)")
        }
        return id
    }

    // MARK: Appearance

    /// Makes `prefers-color-scheme` match `scheme` ("dark" or "light"; "" for the default),
    /// through chromedriver's passage to the DevTools protocol.
    public func emulateColorScheme(_ scheme: String) async throws {
        let features: BrowserValue = [["name": "prefers-color-scheme", "value": .string(scheme)]]
        try await send("POST", "/goog/cdp/execute", ["cmd": "Emulation.setEmulatedMedia", "params": ["features": features]])
    }

    /// Lays the page out as in a window `width` by `height` CSS pixels, through the DevTools
    /// protocol: media queries and `innerWidth` follow.
    public func setViewport(width: Int, height: Int) async throws {
        let params: BrowserValue = ["width": .number(Double(width)), "height": .number(Double(height)), "deviceScaleFactor": 1, "mobile": false]
        try await send("POST", "/goog/cdp/execute", ["cmd": "Emulation.setDeviceMetricsOverride", "params": params])
    }

    /// The visible part of the page as PNG data.
    public func screenshot() async throws -> Data {
        let encoded = try await send("GET", "/screenshot").string ?? ""
        guard let data = Data(base64Encoded: encoded) else {
            throw WebDriverError(command: "GET \(session)/screenshot", status: 200, message: "not base64: \(encoded.prefix(100))")
        }
        return data
    }

    /// Writes the visible part of the page to `path` as a PNG file.
    public func screenshot(to path: String) async throws {
        try await screenshot().write(to: URL(fileURLWithPath: path))
    }

    // MARK: HTTP

    /// Sends a command of this session: `path` is below `/session/{id}`.
    @discardableResult
    private func send(_ method: String, _ path: String, _ body: BrowserValue? = nil) async throws -> BrowserValue {
        guard !closed else { throw WebDriverError(command: "\(method) \(session)\(path)", message: "the browser is closed") }
        return try await Self.send(port, method, session + path, body)
    }

    /// Sends one command and returns the `value` of the answer; throws WebDriver's error.
    private static func send(_ port: Int, _ method: String, _ path: String, _ body: BrowserValue?) async throws -> BrowserValue {
        let command = "\(method) \(path)"
        // Every POST has a JSON body, `{}` when the command takes nothing.
        let json = method == "POST" ? try JSONEncoder().encode(body ?? [:]) : nil
        let response: LocalHTTP.Response
        do {
            response = try await LocalHTTP.request(port: port, method: method, path: path, body: json, timeout: 30)
        } catch {
            throw WebDriverError(command: command, message: "no answer: \(error)")
        }
        guard let answer = try? JSONDecoder().decode(BrowserValue.self, from: response.body) else {
            throw WebDriverError(command: command, status: response.status, message: "not JSON: \(String(decoding: response.body.prefix(500), as: UTF8.self))")
        }
        let value = answer["value"] ?? .null
        guard response.status == 200 else {
            throw WebDriverError(
                command: command, status: response.status, error: value["error"]?.string ?? "", message: value["message"]?.string ?? "\(answer)"
            )
        }
        return value
    }
}
