import RewindInspector
import RewindJSON
import Testing

@Suite struct CursorCommandTests {
    @Test(arguments: [
        ("next", CursorCommand.next), ("n", .next), ("  back ", .back), ("b", .back), ("first", .first), ("last", .last),
        ("jump 8", .jump(8)), ("j 0", .jump(0)), ("JUMP  12", .jump(12)), ("show", .show(nil)),
        ("show login.username", .show("login.username")), ("show photos[2].title", .show("photos[2].title")),
        ("show [\"odd key\"]", .show(JSONPath([.key("odd key")]))), ("diff", .diff(nil)), ("diff 7", .diff(7)),
        ("find didTap*", .find(ActionGlob("didTap*"))), ("find  *Response ", .find(ActionGlob("*Response"))),
        ("help", .help), ("?", .help), ("quit", .quit), ("q", .quit),
    ])
    func parsesEachCommand(line: String, command: CursorCommand) throws {
        #expect(try CursorCommand.parse(line) == command)
    }

    @Test func aBlankLineIsNoCommand() throws {
        #expect(try CursorCommand.parse("") == nil)
        #expect(try CursorCommand.parse(" \t ") == nil)
    }

    @Test(arguments: [
        ("hop", "unknown command 'hop'; type help for the commands"),
        ("j", "j needs a step number, like: jump 8"),
        ("jump 3.5", "jump: '3.5' is not a step number"),
        ("quit now", "quit takes no argument"),
        ("show a..b", "invalid path \"a..b\": expected a key"),
    ])
    func refusesBadLinesInOneLine(line: String, message: String) {
        #expect(throws: CursorCommandError(message)) { try CursorCommand.parse(line) }
    }
}

@Suite struct KeyStrokeTests {
    @Test func decodesCharactersControlsAndEscapeSequences() {
        let bytes: [UInt8] =
            Array("n G/".utf8) + [0x1B, 0x5B, 0x43, 0x1B, 0x5B, 0x44, 0x1B, 0x5B, 0x48, 0x1B, 0x4F, 0x46]
            + Array("\u{1B}[1~\u{1B}[4~\u{1B}[1;5C\u{1B}[A\u{1B}[15~".utf8) + [0x0D, 0x7F, 0x03, 0x04, 0x01, 0x1B]
        #expect(
            KeyStroke.decode(bytes) == [
                .character("n"), .character(" "), .character("G"), .character("/"), .right, .left, .home, .end,
                .home, .end, .right, .up, .other, .enter, .backspace, .interrupt, .endOfInput, .other, .escape,
            ])
    }

    @Test func decodesUTF8AndSurvivesTruncatedInput() {
        #expect(KeyStroke.decode(Array("é→".utf8)) == [.character("é"), .character("→")])
        #expect(KeyStroke.decode(Array("🎞x".utf8)) == [.character("🎞"), .character("x")])
        #expect(KeyStroke.decode([0xE2, 0x86]) == [.other], "a cut character")
        #expect(KeyStroke.decode([0xC3, 0x41, 0x42]) == [.other, .character("B")], "a lead byte without its continuation")
        #expect(KeyStroke.decode([0xC0, 0x80]) == [.other], "an overlong encoding of NUL")
        #expect(KeyStroke.decode([0x1B, 0x5B, 0x31]) == [.other], "a cut sequence")
        #expect(KeyStroke.decode([0x1B, 0x78]) == [.escape, .character("x")])
        #expect(KeyStroke.decode([0xFF, 0x80]) == [.other, .other])
        #expect(KeyStroke.decode([]) == [])
    }
}

@Suite struct StepKeypadTests {
    @Test func mapsKeysToCommands() {
        var keypad = StepKeypad()
        let keys: [KeyStroke] = [
            .right, .character("n"), .character(" "), .left, .character("b"), .home, .character("g"), .end,
            .character("G"), .character("s"), .character("d"), .character("q"), .interrupt, .endOfInput,
        ]
        let outcomes = keys.map { keypad.press($0) }
        #expect(
            outcomes == [
                .run("next"), .run("next"), .run("next"), .run("back"), .run("back"), .run("first"), .run("first"),
                .run("last"), .run("last"), .run("show"), .run("diff"), .run("quit"), .run("quit"), .run("quit"),
            ])
        var outcome = keypad.press(.character("?"))
        #expect(outcome == .help)
        outcome = keypad.press(.up)
        #expect(outcome == .ignored)
        outcome = keypad.press(.character("x"))
        #expect(outcome == .ignored)
        #expect(keypad.bottomLine(style: .plain) == StepKeypad.hint)
    }

    /// With `live` (`rewind step --live`), keys send the app through time; without, they do nothing.
    @Test func liveKeysSendTheAppThroughTime() {
        var keypad = StepKeypad(live: true)
        let outcomes = ["t", "c", "x", "X"].map { keypad.press(.character(Character($0))) }
        #expect(outcomes == [.run("travel"), .run("resume"), .run("skip"), .run("unskip")])
        #expect(keypad.bottomLine(style: .plain) == StepKeypad.liveHint)
        #expect(keypad.help == StepKeypad.helpLines + StepKeypad.liveHelpLines)
        keypad.dispatchText = #"{"add":{"_0":1}}"#
        #expect(keypad.press(.character("a")) == .prompting(.init(command: "dispatch", label: "dispatch: ", text: #"{"add":{"_0":1}}"#)))
        #expect(keypad.bottomLine(style: .plain) == #"dispatch: {"add":{"_0":1}}"#)
        #expect(keypad.press(.enter) == .run(#"dispatch {"add":{"_0":1}}"#))

        var plain = StepKeypad()
        #expect(["t", "c", "a"].map { plain.press(.character(Character($0))) } == [.ignored, .ignored, .ignored])
        #expect(plain.help == StepKeypad.helpLines)
    }

    @Test func slashAndJOpenPromptsThatEnterRunsAndEscapeCancels() {
        var keypad = StepKeypad()
        var outcome: StepKeypad.Outcome
        outcome = keypad.press(.character("/"))
        #expect(outcome == .prompting(StepKeypad.Prompt(command: "find", label: "find: ")))
        for character in "didTapx" { _ = keypad.press(.character(character)) }
        outcome = keypad.press(.backspace)
        #expect(outcome == .prompting(StepKeypad.Prompt(command: "find", label: "find: ", text: "didTap")))
        _ = keypad.press(.character("*"))
        #expect(keypad.bottomLine(style: .plain) == "find: didTap*")
        outcome = keypad.press(.character("q"))
        #expect(outcome != .run("quit"), "q is typed into the prompt")
        _ = keypad.press(.backspace)
        outcome = keypad.press(.enter)
        #expect(outcome == .run("find didTap*"))
        #expect(keypad.prompt == nil)

        _ = keypad.press(.character("j"))
        _ = keypad.press(.character("1"))
        _ = keypad.press(.character("2"))
        #expect(keypad.bottomLine(style: .plain) == "jump to step: 12")
        outcome = keypad.press(.enter)
        #expect(outcome == .run("jump 12"))

        _ = keypad.press(.character("j"))
        _ = keypad.press(.character("4"))
        outcome = keypad.press(.escape)
        #expect(outcome == .cancelled)
        outcome = keypad.press(.character("n"))
        #expect(outcome == .run("next"), "back to single keys")
        _ = keypad.press(.character("/"))
        outcome = keypad.press(.enter)
        #expect(outcome == .cancelled, "an empty prompt runs nothing")
        _ = keypad.press(.character("/"))
        outcome = keypad.press(.backspace)
        #expect(outcome == .cancelled, "deleting past the start cancels")
    }
}

@Suite struct CursorScreenTests {
    @Test func cutsLongOutputToKeepTheHeaderOnScreen() {
        let view = CursorView(), bottom = StepKeypad.hint
        let notes = (1...10).map { "line \($0)" }
        let more = "… 6 more lines (show PATH shows a part; piped commands print everything)"
        let screen = view.screen(view: ["header", "action"], notes: notes, bottom: bottom, size: (rows: 10, columns: 200))
        #expect(screen == ["header", "action", "", "line 1", "line 2", "line 3", "line 4", more, "", StepKeypad.hint])
        #expect(view.screen(view: ["header"], notes: notes, bottom: bottom, size: nil) == ["header", ""] + notes + ["", StepKeypad.hint])
        #expect(view.screen(view: ["header"], notes: notes, bottom: bottom, size: (rows: 16, columns: 200)).count == 14, "room for all")
        #expect(view.screen(view: ["header"], notes: [], bottom: bottom, size: (rows: 3, columns: 200)) == ["header", "", StepKeypad.hint])
    }

    @Test func countsTheRowsThatLongLinesWrapOnto() {
        // At 10 columns: the header takes 1 row, the 25-character line 3, the prompt 1.
        let view = ["header", String(repeating: "x", count: 25)]
        let notes = ["\u{1B}[33mpath\u{1B}[0m: 1", String(repeating: "y", count: 15), "z"]
        let screen = CursorView().screen(view: view, notes: notes, bottom: "find: ", size: (rows: 10, columns: 10))
        #expect(screen.dropFirst(3).prefix(2) == [notes[0], "… 2 more lines (show PATH shows a part; piped commands print everything)"])
        #expect(screen.last == "find: ")
    }
}
