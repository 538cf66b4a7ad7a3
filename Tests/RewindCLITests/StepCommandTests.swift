import Foundation
import Testing

/// `rewind step` through the real binary, with commands piped into standard input.
@Suite struct StepCommandTests {
    /// A log written by `rewind demo` in a fresh folder.
    static func demoLog() throws -> (log: String, folder: TemporaryDirectory) {
        let folder = try TemporaryDirectory()
        let log = folder.path("demo.rewind")
        let demo = try RewindBinary.run(["demo", "--output", log])
        #expect(demo.status == 0, "\(demo.stderr)")
        return (log, folder)
    }

    @Test func aPipedScriptPrintsAPlainStableTranscriptAndLeavesTheLogAlone() throws {
        let (log, folder) = try Self.demoLog()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: log))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        let script = """
            jump 8
            show isUsernameValid
            diff 7
            find didTap*
            find didTap*
            bogus

            show password
            first
            back

            """
        let result = try RewindBinary.run(["step", log, "--session", "login-invalid-then-fixed"], input: script)
        #expect(result.status == 0, "the end of input quits")
        #expect(result.stderr == "")
        #expect(
            result.stdout == """
                #2 (login-invalid-then-fixed): step 0 of 28
                    0   +0.000s  (initial state)
                  {
                    password: <redacted 0>
                    status: "idle"
                    username: ""
                  }

                #2 (login-invalid-then-fixed): step 8 of 28
                    8   +1.580s  login  didTapLogin  errorMessage + "Please correct the highlighted fields.", isPasswordValid + false, isUsernameValid + false
                  + errorMessage: "Please correct the highlighted fields."
                  + isPasswordValid: false
                  + isUsernameValid: false

                isUsernameValid: false

                changes from step 7 to step 8:
                  + errorMessage: "Please correct the highlighted fields."
                  + isPasswordValid: false
                  + isUsernameValid: false

                #2 (login-invalid-then-fixed): step 26 of 28
                   26   +4.560s  login  didTapLogin  isPasswordValid + true, isUsernameValid + true, status: "idle" → "inFlight"
                  + isPasswordValid: true
                  + isUsernameValid: true
                  ~ status: "idle" → "inFlight"

                no step after 26 has an action matching didTap* (the search does not wrap around)

                unknown command 'bogus'; type help for the commands

                password: <redacted 12>

                #2 (login-invalid-then-fixed): step 0 of 28
                    0   +0.000s  (initial state)
                  {
                    password: <redacted 0>
                    status: "idle"
                    username: ""
                  }

                already at step 0, the initial state; nothing before it

                """)
        #expect(!result.stdout.contains("\u{1B}"), "no escape codes in a pipe")
        #expect(!result.stdout.contains("wonderland42"), "the password never shows")
        #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == bytes, "the log's bytes are unchanged")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == files, "no file added")
    }

    @Test func startsAtTheGivenStepAndStopsAtQuit() throws {
        let (log, folder) = try Self.demoLog()
        defer { withExtendedLifetime(folder) {} }
        let result = try RewindBinary.run(["step", log, "-s", "2", "--at", "26"], input: "next\nquit\nnext\n")
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                #2 (login-invalid-then-fixed): step 26 of 28
                   26   +4.560s  login  didTapLogin  isPasswordValid + true, isUsernameValid + true, status: "idle" → "inFlight"
                  + isPasswordValid: true
                  + isUsernameValid: true
                  ~ status: "idle" → "inFlight"

                #2 (login-invalid-then-fixed): step 27 of 28
                   27   +4.980s  login  loginResponse(success(…))  status: "inFlight" → "succeeded", ⇧ userDidLogin(…) ←26
                  ~ status: "inFlight" → "succeeded"

                """, "nothing runs after quit")
    }

    @Test func errorsAreOneLineWithSysexitsCodes() throws {
        let (log, folder) = try Self.demoLog()
        let missing = folder.path("missing.rewind")
        let notes = folder.path("notes.txt")
        try Data("my notes".utf8).write(to: URL(fileURLWithPath: notes))
        let cases: [([String], Int32, String)] = [
            (["step", missing, "-s", "1"], 66, "rewind: \(missing): no such file\n"),
            (["step", notes], 65, "rewind: \(notes): not a Rewind log (not a SQLite database)\n"),
            (["step", log], 64, "rewind: \(log): holds 7 sessions; choose one with --session NUMBER, NAME or UUID\n"),
            (
                ["step", log, "--session", "login-sad", "--at", "3"], 64,
                "rewind: \(log): no session login-sad (the log holds #1 (login-happy), #2 (login-invalid-then-fixed), #3 (login-network-error-retry), #4 (photos-happy-browse), #5 (photos-list-error-retry), #6 (photos-thumbnail-error-retry), #7 (app-full))\n"
            ),
            (
                ["step", log, "--session", "login-happy", "--at", "21"], 64,
                "rewind: \(log): step 21 is out of range: session #1 (login-happy) has steps 0 through 20\n"
            ),
            (
                ["step", log, "--session", "login-happy", "--at=-22"], 64,
                "rewind: \(log): step -22 is out of range: session #1 (login-happy) has steps 0 through 20, and -1 is the last\n"
            ),
        ]
        for (arguments, status, message) in cases {
            let result = try RewindBinary.run(arguments, input: "next\n")
            #expect(result.status == status, "\(arguments)")
            #expect(result.stderr == message)
            #expect(result.stdout == "")
        }
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes")
    }

    @Test func helpShowsAnExample() throws {
        let result = try RewindBinary.run(["step", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Examples:"))
        #expect(result.stdout.contains("\n  printf 'jump 8\\ndiff 7\\nfind didTap*\\n' | rewind step demo.rewind -s 2\n"))
        #expect(result.stdout.contains("--at <step>"))
    }
}
