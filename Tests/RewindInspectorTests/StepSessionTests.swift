import RewindInspector
import RewindLog
import Testing

/// Runs `lines` through a session and collects every reply's output.
private func replies(_ session: inout StepSession, _ lines: [String]) -> [[String]] {
    lines.map { session.run($0).output }
}

@MainActor
@Suite struct StepSessionTests {
    static let step8 = [
        "#2 (login-invalid-then-fixed): step 8 of 28",
        "    8   +1.580s  login  didTapLogin  errorMessage + \"Please correct the highlighted fields.\", isPasswordValid + false, isUsernameValid + false",
        "  + errorMessage: \"Please correct the highlighted fields.\"",
        "  + isPasswordValid: false",
        "  + isUsernameValid: false",
    ]

    @Test func jumpsShowsDiffsAndFinds() async throws {
        let (cursor, _) = try await demoCursor("login-invalid-then-fixed")
        var session = StepSession(cursor: cursor)
        #expect(
            session.view() == [
                "#2 (login-invalid-then-fixed): step 0 of 28",
                "    0   +0.000s  (initial state)",
                "  {",
                "    password: <redacted 0>",
                "    status: \"idle\"",
                "    username: \"\"",
                "  }",
            ], "step 0 shows the state the session starts from")
        let output = replies(&session, ["jump 8", "show isUsernameValid", "diff 7", "find didTap*", "find didTap*"])
        #expect(
            output == [
                Self.step8,
                ["isUsernameValid: false"],
                [
                    "changes from step 7 to step 8:",
                    "  + errorMessage: \"Please correct the highlighted fields.\"",
                    "  + isPasswordValid: false",
                    "  + isUsernameValid: false",
                ],
                [
                    "#2 (login-invalid-then-fixed): step 26 of 28",
                    "   26   +4.560s  login  didTapLogin  isPasswordValid + true, isUsernameValid + true, status: \"idle\" → \"inFlight\"",
                    "  + isPasswordValid: true",
                    "  + isUsernameValid: true",
                    "  ~ status: \"idle\" → \"inFlight\"",
                ],
                ["no step after 26 has an action matching didTap* (the search does not wrap around)"],
            ])
        #expect(session.cursor.step == 26)
    }

    @Test func showsTheStateAndValuesWithSecretsRedacted() async throws {
        let (cursor, _) = try await demoCursor("login-invalid-then-fixed", at: 26)
        var session = StepSession(cursor: cursor)
        #expect(
            replies(&session, ["show", "show password", "show .username", "show missing", "show photos[", "diff 0"]) == [
                [
                    "{",
                    "  isPasswordValid: true",
                    "  isUsernameValid: true",
                    "  password: <redacted 12>",
                    "  status: \"inFlight\"",
                    "  username: \"alice\"",
                    "}",
                ],
                ["password: <redacted 12>"],
                ["username: \"alice\""],
                ["nothing at missing in the state at step 26"],
                ["invalid path \"photos[\": expected an index, a quoted key, id=VALUE or * after '['"],
                [
                    "changes from step 0 to step 26:",
                    "  + isPasswordValid: true",
                    "  + isUsernameValid: true",
                    "  ~ password: <redacted 0> → <redacted 12>",
                    "  ~ status: \"idle\" → \"inFlight\"",
                    "  ~ username: \"\" → \"alice\"",
                ],
            ])
    }

    @Test func saysSoAtEitherEndAndStaysPut() async throws {
        let (cursor, _) = try await demoCursor("login-invalid-then-fixed")
        var session = StepSession(cursor: cursor)
        #expect(
            replies(&session, ["back", "diff", "last", "next", "b", "diff"]) == [
                ["already at step 0, the initial state; nothing before it"],
                ["step 0 is the initial state; there is no step before it to diff against"],
                [
                    "#2 (login-invalid-then-fixed): step 28 of 28",
                    "   28   +4.980s  login  output(userDidLogin(…))  (no change) ←27",
                ],
                ["already at the last step, 28; nothing after it"],
                [
                    "#2 (login-invalid-then-fixed): step 27 of 28",
                    "   27   +4.980s  login  loginResponse(success(…))  status: \"inFlight\" → \"succeeded\", ⇧ userDidLogin(…) ←26",
                    "  ~ status: \"inFlight\" → \"succeeded\"",
                ],
                [
                    "changes from step 26 to step 27:",
                    "  ~ status: \"inFlight\" → \"succeeded\"",
                ],
            ])
        #expect(session.cursor.step == 27)
    }

    @Test func answersBadCommandsWithOneLineAndCarriesOn() async throws {
        let (cursor, _) = try await demoCursor("login-invalid-then-fixed", at: 8)
        var session = StepSession(cursor: cursor)
        let lines = ["nxt", "jump", "jump eight", "jump 29", "j -30", "diff 99", "diff x", "find", "next 2", "", "   "]
        #expect(
            replies(&session, lines) == [
                ["unknown command 'nxt'; type help for the commands"],
                ["jump needs a step number, like: jump 8"],
                ["jump: 'eight' is not a step number"],
                ["no step 29: session #2 (login-invalid-then-fixed) has steps 0 through 28"],
                ["no step -30: session #2 (login-invalid-then-fixed) has steps 0 through 28"],
                ["no step 99: session #2 (login-invalid-then-fixed) has steps 0 through 28"],
                ["diff: 'x' is not a step number"],
                ["find needs a pattern, like: find didTap*"],
                ["next takes no argument"],
                [],
                [],
            ])
        #expect(session.cursor.step == 8, "no bad command moves the cursor")
        #expect(session.run("N").view?.first == "#2 (login-invalid-then-fixed): step 9 of 28", "names are not case-sensitive")
        #expect(session.run("jump -1").view?.first == "#2 (login-invalid-then-fixed): step 28 of 28", "negative steps count back from the last")
        #expect(session.run("j -28").view?.first == "#2 (login-invalid-then-fixed): step 1 of 28")
    }

    @Test func helpListsTheCommandsAndQuitEndsTheSession() async throws {
        let (cursor, _) = try await demoCursor("login-happy")
        var session = StepSession(cursor: cursor)
        #expect(session.run("help") == StepReply(lines: CursorCommand.helpLines))
        #expect(session.run("?").lines.first == "next, n          the next step")
        #expect(session.run("quit") == StepReply(quits: true))
        #expect(session.run("  Q  ").quits)
        #expect(!session.run("next").quits)
    }

    @Test func colourOnlyWhenAsked() async throws {
        let (cursor, _) = try await demoCursor("login-invalid-then-fixed", at: 8)
        #expect(StepSession(cursor: cursor).view() == Self.step8)
        let coloured = StepSession(cursor: cursor, style: .ansi).view()
        #expect(coloured.first == "\u{1B}[1;4m#2 (login-invalid-then-fixed): step 8 of 28\u{1B}[0m")
        #expect(coloured.count == Self.step8.count)
    }
}

/// `step` on a terminal: the action line is as wide as the terminal.
@Suite struct StepWidthTests {
    @Test func aWideTerminalShowsTheWholePayload() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("long.rewind")
        let name = String(repeating: "alice-", count: 12) + "x"
        let log = try HandmadeLog(path: path)
        try log.session("long", steps: [HandmadeLog.Step(step: 1, state: HandmadeLog.login(name, password: 0), action: HandmadeLog.typed(name))])
        try log.close()
        let inspector = try LogInspector(path: path)
        let cursor = try TimeTravelCursor(inspector: inspector, session: try inspector.session("long"), step: 1)
        let narrow = CursorView().lines(of: cursor)[1]
        let wide = CursorView(columns: 140).lines(of: cursor)[1]
        #expect(narrow.hasPrefix(#"    1   +0.250s  login  didUpdateUsername("alice-alice-alice-alice-alice-alice-alice-alic…)  username: "#), "\(narrow)")
        #expect(wide.contains(#"didUpdateUsername("\#(name)")  username: "#), "\(wide)")
        var session = StepSession(cursor: cursor)
        session.columns = 140
        #expect(session.view()[1] == wide)
    }
}
