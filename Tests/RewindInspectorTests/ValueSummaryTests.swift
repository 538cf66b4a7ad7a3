import RewindInspector
import RewindJSON
import RewindRendering
import Testing

@Suite struct ValueSummaryTests {
    @Test func aLongValueIsCountedInTheRightNumber() throws {
        let long = String(repeating: "x", count: 60)
        #expect(ValueSummary.describe(try JSONValue(parsing: #"{"message":"\#(long)"}"#)) == "{1 field}")
        #expect(ValueSummary.describe(try JSONValue(parsing: #"{"a":"\#(long)","b":1}"#)) == "{2 fields}")
        #expect(ValueSummary.describe(try JSONValue(parsing: #"["\#(long)"]"#)) == "[1 item]")
        #expect(ValueSummary.describe(try JSONValue(parsing: #"["\#(long)",1]"#)) == "[2 items]")
    }

    /// A long string and the same plus one character: cut where they differ, not at two equal
    /// heads. Strings whose summaries differ (near the start, an id printed whole) keep them.
    @Test func longStringsAreCutWhereTheyDiffer() {
        let long = String(repeating: "x", count: 2_000)
        #expect(
            ValueSummary.differingStrings(.string(long), .string(long + "!"), limit: 20)
                == #""…xxxxxxxx" → "…xxxxxxxx!" (from character 2,001)"#)
        #expect(ValueSummary.differingStrings(.string("ab" + long), .string("aX" + long), limit: 20) == nil)
        #expect(ValueSummary.differingStrings(.string(""), .string(long), limit: 20) == nil)
        let ids = ["00000000-0000-0000-0000-000000000000", "5f0c6a5e-8d1b-4c53-9a4e-2b7d1f3c9e01"]
        #expect(ValueSummary.differingStrings(.string(ids[0]), .string(ids[1]), limit: 20) == nil, "an id prints whole")
        #expect(
            ValueSummary.differingStrings(.string("q\"" + long), .string("q\"" + long + "\n"), limit: 20)
                == #""…xxxxxxxx" → "…xxxxxxxx\n" (from character 2,003)"#)
        #expect(ValueSummary.differingStrings(.string("short"), .string("other"), limit: 20) == nil)
        #expect(ValueSummary.differingStrings(.string(long), .int(1), limit: 20) == nil)
        let line = DiffRenderer().render([JSONChange(path: "note", kind: .changed(from: .string(long), to: .string(long + "!")))])
        #expect(line == [#"~ note: "…xxxxxxxx" → "…xxxxxxxx!" (from character 2,001)"#])
    }

    /// Counts are of Unicode scalars, as the page counts them: an emoji is one (two UTF-16
    /// units), `e` + U+0301 two (one Swift Character). Strings compare byte for byte, so `é`
    /// and `e` + U+0301 differ, as they do on the page.
    @Test func charactersAreUnicodeScalars() {
        let faces = String(repeating: "😀", count: 50)
        #expect(ValueSummary.describe(.string(faces)) == "\"" + String(repeating: "😀", count: 38) + "…")
        let accents = String(repeating: "e\u{301}", count: 25)
        #expect(ValueSummary.describe(.string(accents)) == "\"" + String(repeating: "e\u{301}", count: 19) + "…")
        let longFaces = String(repeating: "😀", count: 2_000)
        #expect(
            ValueSummary.differingStrings(.string(longFaces), .string(longFaces + "!"), limit: 20)
                == "\"…😀😀😀😀😀😀😀😀\" → \"…😀😀😀😀😀😀😀😀!\" (from character 2,001)")
        let xs = String(repeating: "x", count: 2_000)
        #expect(
            ValueSummary.differingStrings(.string(xs + "\u{E9}"), .string(xs + "e\u{301}"), limit: 20)
                == "\"…xxxxxxxx\u{E9}\" → \"…xxxxxxxxe\u{301}\" (from character 2,001)")
    }
}
