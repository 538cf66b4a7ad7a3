import RewindInspector
import RewindJSON
import RewindRendering
import Testing

@Suite struct TerminalTextTests {
    /// Each class at its bounds, and its neighbours left alone.
    @Test(arguments: [
        ("\u{00}", #"\u0000"#), ("\u{08}", #"\b"#), ("\t", #"\t"#), ("\n", #"\n"#), ("\u{0C}", #"\f"#), ("\r", #"\r"#),
        ("\u{1B}", #"\u001b"#), ("\u{1F}", #"\u001f"#), (" ", " "), ("~", "~"), ("\u{7F}", #"\u007f"#),
        ("\u{80}", #"\u0080"#), ("\u{9B}", #"\u009b"#), ("\u{9F}", #"\u009f"#), ("\u{A0}", "\u{A0}"), ("é", "é"),
        ("\u{061B}", "\u{061B}"), ("\u{061C}", #"\u061c"#), ("\u{200D}", "\u{200D}"), ("\u{200E}", #"\u200e"#),
        ("\u{200F}", #"\u200f"#), ("\u{2010}", "\u{2010}"), ("\u{2029}", "\u{2029}"), ("\u{202A}", #"\u202a"#),
        ("\u{202E}", #"\u202e"#), ("\u{202F}", "\u{202F}"), ("\u{2065}", "\u{2065}"), ("\u{2066}", #"\u2066"#),
        ("\u{2069}", #"\u2069"#), ("\u{206A}", "\u{206A}"), ("→", "→"), ("\\", "\\"), ("😀", "😀"),
    ])
    func escapesControlsAndBidirectionalCharactersOnly(character: String, shown: String) {
        #expect(TerminalText.escaped("a" + character + "b") == "a" + shown + "b")
    }

    @Test func escapingTwiceChangesNothingMoreAndJSONStaysTheSameJSON() throws {
        let hostile = "\u{1B}]0;pwned\u{07}\u{9B}2J\u{7F}\u{202E}\r\n"
        let once = TerminalText.escaped(hostile)
        #expect(once == #"\u001b]0;pwned\u0007\u009b2J\u007f\u202e\r\n"#)
        #expect(TerminalText.escaped(once) == once)
        let json = TerminalText.json(["name": .string(hostile)])
        #expect(json == #"{"name":"\u001b]0;pwned\u0007\u009b2J\u007f\u202e\r\n"}"#)
        #expect(try JSONValue(parsing: json) == ["name": .string(hostile)])
    }

    /// With colour on, the only escape sequences in a line are the style's own: a recorded
    /// `ESC [ 31 m` is text like any other.
    @Test func colourIsTheOnlyEscapeSequenceInAColouredLine() throws {
        let hostile = "\u{1B}[31m\u{1B}[2J"
        let action: JSONValue = [hostile: ["_0": .string(hostile)]]
        let change = JSONChange(path: JSONPath([.key(hostile)]), kind: .changed(from: .string(hostile), to: "b"))
        let entry = TimelineEntry(step: 1, offset: 0, origin: hostile, name: hostile, cause: nil, action: action, outputs: [hostile], changes: [change])
        let line = try #require(TimelineRenderer(style: .ansi).render([entry]).first)
        let e = #"\u001b[31m\u001b[2J"#
        let plain = line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(!plain.contains("\u{1B}"), "\(line)")
        #expect(
            plain == #"    1   +0.000s  \#(e)  \#(e)("\#(e)")  ["\#(e)"]: "\#(e)" → "b", ⇧ \#(e)"#)
    }
}
