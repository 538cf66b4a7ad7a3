import Foundation
import RewindJSON
import Testing

/// Recorded strings that a terminal would act on (escape sequences, the 8-bit CSI, DEL, the
/// right-to-left override, carriage returns and newlines) reach it escaped, whatever the verb.
@Suite struct TerminalEscapingTests {
    /// How the hostile text reads once escaped.
    static let e = HostileSessions.escaped

    /// A folder holding `hostile.rewind`: #1 the hostile flow's session, #2 a login session
    /// with a hostile name whose recorded error message, hostile too, the current reducer no
    /// longer gives (so replay diverges at step 2).
    static func hostileLog() async throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        let log = folder.path("hostile.rewind")
        try await HostileSessions.record(into: log)
        try await ReplayJUnitTests.record("login" + HostileSessions.text, message: "Oops " + HostileSessions.text, into: log)
        return folder
    }

    /// The characters no output may hold: every control but the newline that ends a line of
    /// output, and the bidirectional formatting characters. Spelled out here, not taken from
    /// the code under test.
    static func raw(in text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A: false
            case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    /// Runs `rewind arguments` in `folder`, checking that neither output holds a raw character.
    @discardableResult
    static func run(_ arguments: [String], in folder: TemporaryDirectory, input: String = "") throws -> RewindBinary.Result {
        let result = try RewindBinary.run(arguments, in: folder.url, input: input)
        #expect(raw(in: result.stdout).isEmpty, "\(arguments): standard output holds \(raw(in: result.stdout))")
        #expect(raw(in: result.stderr).isEmpty, "\(arguments): standard error holds \(raw(in: result.stderr))")
        return result
    }

    @Test func theMainVerbsPrintTheRecordedStringsEscaped() async throws {
        let folder = try await Self.hostileLog()
        let e = Self.e
        // A value cut short in a column: cut as JSON text, before escaping.
        let cut = #""\u001b[2J\u001b]0;pwned\u0007\u009b31m\u007f\u202e\r\…"#
        // The text doubled: two summaries that would read the same are cut where they differ
        // (`\r\n` is two characters: Unicode scalars, as the page counts them).
        let doubled = #""…\u009b31m\u007f\u202e\r\n" → "…\u009b31m\u007f\u202e\r\n\u001b[2J\u001b]0;…" (from character 23)"#

        let sessions = try Self.run(["sessions", "hostile.rewind"], in: folder)
        #expect(
            sessions.stdout == """
                #  name                                                         flow                                                        steps  started (UTC)        duration
                1  evil\(e)   flow\(e)      4  2027-01-15 08:00:00    0.000s
                2  login\(e)  login                                                           3  2027-01-15 08:00:00    0.000s

                """)

        // An action longer than the column (64) is cut there, escaped, so the changes line up.
        let log = try Self.run(["log", "hostile.rewind", "-s", "1"], in: folder)
        #expect(
            log.stdout == """
                    1   +0.000s  editor\(e)  write\(e)("\\u…  note: "" → \(cut), tags["\(e)"] + \(cut), ⇧ done\(e)
                    2   +0.000s  editor\(e)  output(done\(e.dropLast(2))…  (no change) ←1
                    3   +0.000s  editor\(e)  write\(e)("\\u…  note: \(doubled), tags["\(e)"]: \(doubled), ⇧ done\(e)
                    4   +0.000s  editor\(e)  output(done\(e.dropLast(2))…  (no change) ←3

                """)

        let show = try Self.run(["show", "hostile.rewind", "1", "-s", "1"], in: folder)
        #expect(
            show.stdout == """
                #1 (evil\(e)) step 1 of 4, +0.000s
                action: editor\(e)  write\(e)("\(e)")
                output: done\(e)
                state: {
                  note: "\(e)"
                  tags: {
                    ["\(e)"]: "\(e)"
                  }
                }

                """)

        let diff = try Self.run(["diff", "hostile.rewind", "0", "1", "-s", "1"], in: folder)
        #expect(
            diff.stdout == """
                hostile.rewind #1 (evil\(e)) step 0 → hostile.rewind #1 (evil\(e)) step 1
                ~ note: "" → "\(e)"
                + tags["\(e)"]: "\(e)"

                """)

        let history = try Self.run(["history", "hostile.rewind", "tags[*]", "-s", "1"], in: folder)
        #expect(
            history.stdout == """
                    0  (initial)                                 tags[*]: (none)
                    1  write\(e)  tags["\(e)"]: (absent) → "\(e)"
                    3  write\(e)  tags["\(e)"]: "\(e)" → "\(e)\\u001b[2J\\u001b]0;p…

                """)

        let find = try Self.run(["find", "hostile.rewind", "-s", "1", "--where", #"note != """#], in: folder)
        #expect(
            find.stdout == """
                #1 evil\(e)  step 1  write\(e)
                #1 evil\(e)  step 2  output
                #1 evil\(e)  step 3  write\(e)
                #1 evil\(e)  step 4  output

                """)

        let replay = try Self.run(["replay", "hostile.rewind", "-s", "2"], in: folder)
        #expect(replay.status == 1)
        #expect(
            replay.stdout == """
                FAILED  hostile.rewind #2 (login\(e)): diverged at step 2 (login  didTapLogin); recorded → replayed:
                  ~ errorMessage: "Oops \(e)" → "Please correct the highlighted fields."

                """)

        let refused = try Self.run(["replay", "hostile.rewind"], in: folder)
        #expect(refused.status == 64)
        #expect(
            refused.stderr
                == "rewind: hostile.rewind: session #1 (evil\(e)) is of flow 'flow\(e)', whose reducer rewind does not have (it knows app, login, photos); "
                + "replay runs an app's reducers: build your app's own inspector with the RewindCLI library (docs/adoption.md, \"Your own inspector\")\n")

        try Self.run(["export", "hostile.rewind", "-o", "hostile.jsonl"], in: folder)
        let imported = try Self.run(["import", "hostile.jsonl", "-o", "copy.rewind"], in: folder)
        #expect(
            imported.stdout == """
                imported session #1 (evil\(e), flow\(e) flow): 4 steps into copy.rewind
                imported session #2 (login\(e), login flow): 3 steps into copy.rewind

                """)
    }

    /// Every verb that prints text, and errors that quote a recorded name or an argument, with
    /// the status each ends with.
    static let verbs: [(arguments: [String], status: Int32)] = [
        (["sessions", "hostile.rewind"], 0),
        (["sessions", "hostile.rewind", "--json"], 0),
        (["log", "hostile.rewind", "-s", "1"], 0),
        (["log", "hostile.rewind", "-s", "1", "--json"], 0),
        (["log", "hostile.rewind", "-s", "1", "--follow"], 0),
        (["show", "hostile.rewind", "2", "-s", "1"], 0),
        (["show", "hostile.rewind", "2", "-s", "1", "--json"], 0),
        (["show", "hostile.rewind", "1", "-s", "1", "--path", "tags[*]"], 0),
        (["diff", "hostile.rewind", "0", "3", "-s", "1"], 0),
        (["diff", "hostile.rewind", "0", "3", "-s", "1", "--json"], 0),
        (["history", "hostile.rewind", "note", "-s", "1"], 0),
        (["history", "hostile.rewind", "tags[*]", "-s", "1", "--json"], 0),
        (["find", "hostile.rewind", "--where", #"note != """#], 0),
        (["find", "hostile.rewind", "--where", #"note != """#, "--json"], 0),
        (["find", "hostile.rewind", "-s", "1", "--where", #"note != """#, "--follow"], 0),
        (["replay", "hostile.rewind", "-s", "2"], 1),
        (["replay", "hostile.rewind", "-s", "2", "--json"], 1),
        (["replay", "hostile.rewind"], 64),
        (["replay", "hostile.rewind", "-s", "2", "--skip", "2", "--only-until", "2", "-o", "what-if.rewind"], 0),
        (["replay", "hostile.rewind", "-s", "2", "--skip", "2", "--only-until", "2", "--json"], 0),
        (["check", "hostile.rewind"], 0),
        (["check", "hostile.rewind", "--json"], 0),
        (["minimize", "hostile.rewind", "-s", "2", "--diverging", "-o", "small.rewind"], 0),
        (["minimize", "hostile.rewind", "-s", "2", "--until", #"errorMessage == "never""#, "-o", "small.rewind"], 1),
        (["show", "hostile.rewind", "9", "-s", "1"], 64),
        (["log", "hostile.rewind", "-s", "x\u{1B}[2J"], 64),
        (["step", "hostile.rewind", "-s", "1"], 0),
    ]

    /// Nothing raw reaches either output, and the hostile text shows, escaped.
    @Test(arguments: verbs)
    func everyVerbKeepsTheTerminalSafe(arguments: [String], status: Int32) async throws {
        let folder = try await Self.hostileLog()
        let input = "show\nnext\nshow tags\ndiff\nfind zz\nrerun\njump 9\nshow missing\n"
        let result = try Self.run(arguments, in: folder, input: arguments[0] == "step" ? input : "")
        #expect(result.status == status, "\(result.stderr)")
        #expect((result.stdout + result.stderr).contains(#"\u001b[2J"#), "the hostile text shows, escaped: \(result.stdout)\(result.stderr)")
    }

    /// The step inspector's answers, as a pipe reads them.
    @Test func stepAnswersEscaped() async throws {
        let folder = try await Self.hostileLog()
        let e = Self.e
        let result = try Self.run(["step", "hostile.rewind", "-s", "1", "--at", "1"], in: folder, input: "show tags\nrerun\njump 9\n")
        #expect(
            result.stdout == """
                #1 (evil\(e)): step 1 of 4
                    1   +0.000s  editor\(e)  write\(e)("\(e)")  note: "" → "\\u001b[2J\\u001b]0;pwned\\u0007\\u009b31m\\u007f\\u202e\\r\\…, tags["\(e)"] + "\\u001b[2J\\u001b]0;pwned\\u0007\\u009b31m\\u007f\\u202e\\r\\…, ⇧ done\(e)
                  ~ note: "" → "\(e)"
                  + tags["\(e)"]: "\(e)"

                tags: {
                  ["\(e)"]: "\(e)"
                }

                hostile.rewind: session #1 (evil\(e)) is of flow 'flow\(e)', whose reducer rewind does not have (it knows app, login, photos); rerun runs an app's reducers: build your app's own inspector with the RewindCLI library (docs/adoption.md, "Your own inspector")

                no step 9: session #1 (evil\(e)) has steps 0 through 4

                """)
    }

    /// `--json` stays JSON that reads back as recorded; DEL, C1 and bidirectional characters,
    /// which JSON lets stand raw, are escaped as well. `export` writes canonical JSON, which
    /// escapes the C0 controls, and `import` reads the strings back whole.
    @Test func jsonAndExportKeepTheStringsExactly() async throws {
        let folder = try await Self.hostileLog()
        let sessions = try Self.run(["sessions", "hostile.rewind", "--json"], in: folder)
        #expect(sessions.stdout.contains(#""name":"evil\u001b[2J\u001b]0;pwned\u0007\u009b31m\u007f\u202e\r\n""#))
        let parsed = try JSONValue(parsing: sessions.stdout)
        #expect(parsed[JSONPath("[0].name")] == .string(HostileSessions.name))
        #expect(parsed[JSONPath("[0].flow")] == .string(HostileSessions.flow))

        let show = try Self.run(["show", "hostile.rewind", "1", "-s", "1", "--json"], in: folder)
        let step = try JSONValue(parsing: show.stdout)
        #expect(step[JSONPath("action_type")] == .string(HostileSessions.actionName))
        #expect(step[JSONPath("origin")] == .string(HostileSessions.origin))
        #expect(step[JSONPath("state.note")] == .string(HostileSessions.text))

        let export = try await RewindBinary.run(["export", "hostile.rewind", "-s", "1"], in: folder.url)
        #expect(export.status == 0)
        let controls = export.stdout.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" }
        #expect(controls.isEmpty, "JSON escapes every C0 control")
        let first = try JSONValue(parsing: String(export.stdout.prefix { $0 != "\n" }))
        #expect(first[JSONPath("name")] == .string(HostileSessions.name))
        #expect(export.stdout.contains("\u{9B}31m\u{7F}\u{202E}"), "canonical JSON: the rest stands raw")

        try Self.run(["export", "hostile.rewind", "-o", "hostile.jsonl"], in: folder)
        try Self.run(["import", "hostile.jsonl", "-o", "copy.rewind"], in: folder)
        let copy = try Self.run(["sessions", "copy.rewind", "--json"], in: folder)
        #expect(try JSONValue(parsing: copy.stdout)[JSONPath("[0].name")] == .string(HostileSessions.name))
    }

    /// Paths given on the command line are printed as given, escaped too: a folder of
    /// recordings may hold any file name.
    @Test func pathsTheUserGivesAreEscaped() async throws {
        let folder = try await Self.hostileLog()
        let recorded = try Self.run(["record", "login", "--script", "login-happy", "-o", "r\u{1B}]0;pwned\u{07}.rewind"], in: folder)
        #expect(recorded.stdout == #"recorded session #1 (login-happy, login flow): 20 steps into r\u001b]0;pwned\u0007.rewind"# + "\n")

        let page = folder.url.appendingPathComponent("p\u{1B}[2J.html").path
        let report = try Self.run(["report", "hostile.rewind", "-s", "1", "-o", "p\u{1B}[2J.html"], in: folder)
        #expect(report.stdout.hasPrefix(#"wrote p\u001b[2J.html ("#))
        #expect(report.stdout.hasSuffix("file://" + page.replacingOccurrences(of: "\u{1B}", with: #"\u001b"#) + "\n"))

        let demo = try Self.run(["demo", "-o", "d\u{1B}[2J.rewind"], in: folder)
        #expect(demo.stdout.hasPrefix(#"Recorded 7 sessions into d\u001b[2J.rewind ("#))
        #expect(demo.stdout.contains(#" log d\u001b[2J.rewind --session login-invalid-then-fixed"#))
    }

    /// The HTML report is not the terminal's: its data holds the strings as recorded (the
    /// page makes them text), not their terminal escapes.
    @Test func theReportKeepsTheStringsAsRecorded() async throws {
        let folder = try await Self.hostileLog()
        try Self.run(["report", "hostile.rewind", "-s", "1", "-o", "page.html"], in: folder)
        let page = try String(contentsOfFile: folder.path("page.html"), encoding: .utf8)
        let opening = #"<script type="application/json" id="rewind-data">"#
        let start = try #require(page.range(of: opening))
        let end = try #require(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
        let data = try JSONValue(parsing: String(page[start.upperBound..<end.lowerBound]))
        #expect(data[JSONPath("sessions[0].name")] == .string(HostileSessions.name))
        #expect(data[JSONPath("sessions[0].origins[0]")] == .string(HostileSessions.origin))
        let payload = HostileSessions.actionName + "(" + JSONValue.string(HostileSessions.text).canonicalString + ")"
        #expect(data[JSONPath("sessions[0].actions[0][1]")] == .string(payload))
    }

    /// On a real terminal, colour on: what the log holds neither clears the screen nor
    /// retitles the window.
    @Test(.tmux)
    func aTerminalIsLeftAlone() async throws {
        let folder = try await Self.hostileLog()
        let rewind = Tmux.quoted(RewindBinary.url.path)
        let commands = [
            // `swift test` sets NO_COLOR; a user's terminal has colour.
            "unset NO_COLOR", "cd \(Tmux.quoted(folder.url.path))",
            "\(rewind) sessions hostile.rewind", "\(rewind) log hostile.rewind -s 1 --to 2", "\(rewind) show hostile.rewind 1 -s 1",
            "\(rewind) replay hostile.rewind -s 2", "\(rewind) replay hostile.rewind", "echo after",
        ]
        let tmux = try Tmux(command: commands.joined(separator: "; "), columns: 250, rows: 60)
        let screen = try await tmux.waitForScreen { $0.contains("after") }
        // A clear screen would leave the rows above the cursor empty: none of the commands
        // prints an empty line.
        let printed = try #require(screen.components(separatedBy: "after\n").first)
        #expect(!printed.hasPrefix("\n") && !printed.contains("\n\n"), "the screen was not cleared: \(screen)")
        #expect(screen.contains("#1 (evil\(Self.e)) step 1 of 4"), "\(screen)")
        #expect(screen.contains("rewind: hostile.rewind: session #1 (evil\(Self.e)) is of flow"), "\(screen)")
        #expect(try tmux.paneTitle() != "pwned")
        let colored = try tmux.coloredScreen()
        #expect(colored.contains("\u{1B}[1m"), "colour was on: \(colored)")
    }
}
