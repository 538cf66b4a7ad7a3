import Foundation
import FoundationXML
import PhotoApp
import RewindCore
import RewindLog
import Testing

/// `rewind replay --junit`: the run as JUnit XML, read back as CI systems read it.
@Suite struct ReplayJUnitTests {
    /// The login screen, its error message replaced when `message` is given: nil replays
    /// clean, anything else diverges at the failed login (step 2).
    struct Login: Reducer {
        let message: String?
        let base = LoginFeature(backend: FakeBackend(seed: 1, clock: SimulatedClock(start: .testEpoch)))

        func reduce(into state: inout LoginState, action: LoginAction) -> Effect<LoginAction> {
            let effect = base.reduce(into: &state, action: action)
            if let message, state.errorMessage != nil { state.errorMessage = message }
            return effect
        }
    }

    /// Adds a session named `name` to the log at `path`.
    @MainActor
    static func record(_ name: String, message: String?, schemaVersion: Int = 1, into path: String) throws {
        let sink = try SQLiteSink(path: path)
        let descriptor = SessionDescriptor(name: name, flow: "login", schemaVersion: schemaVersion, now: { .testEpoch })
        let recorder = Recorder<LoginState, LoginAction>(sink: sink, session: descriptor)
        let store = Store(initialState: LoginState(), reducer: Login(message: message), middleware: [recorder])
        store.send(.didUpdateUsername("al"))
        store.send(.didTapLogin)
        store.send(.didUpdateUsername("alice"))
        recorder.close()
        try sink.close()
    }

    /// The XML with every `time` attribute, which varies from run to run, as `T`.
    static func timesHidden(_ xml: String) -> String {
        xml.replacingOccurrences(of: #"time="[0-9]+\.[0-9]{3}""#, with: #"time="T""#, options: .regularExpression)
    }

    @Test func aPassingAndADivergingSession() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("login.rewind")
        let junit = folder.path("replay.xml")
        try await Self.record("passes", message: nil, into: log)
        try await Self.record("older", message: "Fix the fields.", into: log)

        let result = try await RewindBinary.run(["replay", log, "--junit", junit])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stdout == """
                ok      \(log) #1 (passes): 3 steps replayed, every state matches (3 with redacted fields compared as placeholders)
                FAILED  \(log) #2 (older): diverged at step 2 (login  didTapLogin); recorded → replayed:
                  ~ errorMessage: "Fix the fields." → "Please correct the highlighted fields."

                """)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(
            Self.timesHidden(xml) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="rewind replay" tests="2" failures="1" errors="0" skipped="0" time="T">
                  <testsuite name="\(log)" tests="2" failures="1" errors="0" skipped="0" time="T">
                    <testcase name="#1 (passes)" classname="\(log)" time="T"/>
                    <testcase name="#2 (older)" classname="\(log)" time="T">
                      <failure message="diverged at step 2 (login  didTapLogin); recorded → replayed" type="diverged">FAILED  \(log) #2 (older): diverged at step 2 (login  didTapLogin); recorded → replayed:
                  ~ errorMessage: "Fix the fields." → "Please correct the highlighted fields."</failure>
                    </testcase>
                  </testsuite>
                </testsuites>

                """)
    }

    @Test func hostileStringsStillParseAndARefusedSessionIsAnError() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("hostile.rewind")
        let junit = folder.path("replay.xml")
        let hostile = "<b>&\"]]>'\u{1B}x"
        try await Self.record(hostile, message: hostile, into: log)
        try await Self.record("newer", message: nil, schemaVersion: 99, into: log)

        let result = try await RewindBinary.run(["replay", log, "--junit", junit, "--json"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 2, "the JSON lines, one a session")

        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: junit), options: [])
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        #expect(root.attribute(forName: "tests")?.stringValue == "2")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.count == 1)
        for suite in suites {
            for name in ["name", "tests", "failures", "errors", "skipped", "time"] {
                #expect(suite.attribute(forName: name) != nil, "testsuite has \(name)")
            }
            #expect(suite.attribute(forName: "failures")?.stringValue == "1")
            #expect(suite.attribute(forName: "errors")?.stringValue == "1")
        }
        let cases = suites.flatMap { $0.elements(forName: "testcase") }
        #expect(cases.map { $0.attribute(forName: "classname")?.stringValue } == [log, log])
        // The escape character, which XML 1.0 forbids even as a reference, is replaced.
        let expectedName = "#1 (<b>&\"]]>'\u{FFFD}x)"
        #expect(cases.map { $0.attribute(forName: "name")?.stringValue } == [expectedName, "#2 (newer)"])

        let failure = try #require(cases[0].elements(forName: "failure").first)
        #expect(failure.attribute(forName: "type")?.stringValue == "diverged")
        #expect(failure.attribute(forName: "message")?.stringValue == "diverged at step 2 (login  didTapLogin); recorded → replayed")
        let text = try #require(failure.stringValue)
        // The text is the terminal's report, where the escape character is already text.
        #expect(text.hasPrefix(#"FAILED  \#(log) #1 (<b>&"]]>'\u001bx): diverged at step 2"#))
        #expect(text.contains(#"<b>&\"]]>'\u001b"#), "the diff's JSON string, escaped by the diff and then by XML")

        let error = try #require(cases[1].elements(forName: "error").first)
        #expect(error.attribute(forName: "type")?.stringValue == "refused")
        #expect(error.attribute(forName: "message")?.stringValue == "cannot replay step 0: recorded with schema version 99, newer than flow login's 1")
    }

    @Test func refusesToWriteOverALogAndWithUpdate() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("login.rewind")
        try await Self.record("passes", message: nil, into: log)
        let before = FileManager.default.contents(atPath: log)

        let overLog = try await RewindBinary.run(["replay", log, "--junit", log])
        #expect(overLog.status == 64)
        #expect(overLog.stderr == "rewind: \(log): is the log being read; choose another --junit\n")
        #expect(FileManager.default.contents(atPath: log) == before)

        let update = try await RewindBinary.run(["replay", log, "--update", "--junit", folder.path("replay.xml")])
        #expect(update.status == 64)
        #expect(update.stderr == "rewind: --junit reports failures; --update accepts them: choose one (see 'rewind replay --help')\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path("replay.xml")))
    }
}
