import Foundation
import RewindJSON
import Testing

@Suite struct ParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let text = #" { "s": "x", "i": -12, "d": 2.5e3, "t": true, "f": false, "n": null, "a": [ 1 , [ ] , { } ] } "#
        let expected: JSONValue = ["s": "x", "i": -12, "d": 2500.0, "t": true, "f": false, "n": nil, "a": [1, [], [:]]]
        #expect(try JSONValue(parsing: text) == expected)
        #expect(try JSONValue(parsing: Data(text.utf8)) == expected)
        #expect(try JSONValue(parsing: Array(text.utf8)) == expected)
    }

    @Test func acceptsNonContiguousCollections() throws {
        let bytes = Array(#"[1, "two"]"#.utf8).lazy.map { $0 }
        #expect(try JSONValue(parsing: bytes) == [1, "two"])
    }

    @Test(arguments: [
        ("0", JSONValue.int(0)),
        ("-0", .int(0)),
        ("9223372036854775807", .int(.max)),
        ("-9223372036854775808", .int(.min)),
        ("9223372036854775808", .double(9223372036854775808.0)),
        ("-9223372036854775809", .double(-9223372036854775809.0)),
        ("1.0", .double(1.0)),
        ("-0.0", .double(-0.0)),
        ("1e2", .double(100.0)),
        ("1E+2", .double(100.0)),
        ("25e-1", .double(2.5)),
        ("0.000001", .double(0.000001)),
        ("1e-400", .double(0.0)),
    ])
    func parsesNumbers(text: String, expected: JSONValue) throws {
        #expect(try JSONValue(parsing: text) == expected)
    }

    @Test func decodesEscapes() throws {
        let text = #""\" \\ \/ \b \f \n \r \t \u0041 \u00e9 \u20AC \ud83c\udf9e""#
        #expect(try JSONValue(parsing: text) == .string("\" \\ / \u{8} \u{C} \n \r \t A é € 🎞"))
    }

    @Test func keepsRawUTF8() throws {
        #expect(try JSONValue(parsing: "[\"é€🎞\"]") == ["é€🎞"])
    }

    @Test func sortsKeysOfUnsortedObjects() throws {
        let value = try JSONValue(parsing: #"{"b":1,"c":2,"a":3}"#)
        #expect(value.canonicalString == #"{"a":3,"b":1,"c":2}"#)
    }

    @Test(arguments: [
        ("", 0, "unexpected end of input, expected a value"),
        ("   ", 3, "unexpected end of input, expected a value"),
        ("[1,]", 3, "trailing comma in array"),
        (#"{"a":1,}"#, 7, "trailing comma in object"),
        (#"{"a" 1}"#, 5, "expected ':' after object key"),
        (#"{"a":1 "b":2}"#, 7, "unexpected character '\"', expected ',' or '}' after object member"),
        ("{1:2}", 1, "unexpected character '1', expected a string key"),
        ("[1 2]", 3, "unexpected character '2', expected ',' or ']' after array element"),
        ("[1", 2, "unexpected end of input, expected ',' or ']' after array element"),
        ("1 2", 2, "unexpected character '2' after the JSON value"),
        ("// c\n1", 0, "unexpected character '/', expected a value"),
        ("NaN", 0, "unexpected character 'N', expected a value"),
        ("nul", 0, "invalid literal, expected 'null'"),
        ("truth", 0, "invalid literal, expected 'true'"),
        ("truex", 4, "unexpected character 'x' after the JSON value"),
        ("01", 0, "leading zeros are not allowed"),
        ("-01", 1, "leading zeros are not allowed"),
        ("-", 1, "expected a digit after '-'"),
        ("-a", 1, "expected a digit after '-'"),
        ("1.", 2, "expected a digit after '.'"),
        ("1.e5", 2, "expected a digit after '.'"),
        ("1e", 2, "expected a digit after the exponent marker"),
        ("1e+", 3, "expected a digit after the exponent marker"),
        ("+1", 0, "unexpected character '+', expected a value"),
        (".5", 0, "unexpected character '.', expected a value"),
        ("1e400", 0, "number is too large for a double"),
        (#""abc"#, 0, "unterminated string"),
        ("\"a\nb\"", 2, "unescaped control character in string"),
        (#""\x""#, 1, "invalid escape sequence"),
        (#""\u12G4""#, 5, #"expected four hex digits after \u"#),
        (#""\ud800""#, 1, #"unpaired surrogate in \u escape"#),
        (#""\ud800\u0041""#, 1, #"unpaired surrogate in \u escape"#),
        (#""\udc00""#, 1, #"unpaired surrogate in \u escape"#),
        (#"{"a":1,"a":2}"#, 7, #"duplicate key "a""#),
        (#"{"b":1,"a":2,"b":3}"#, 13, #"duplicate key "b""#),
        ("[1]\u{0}", 3, "unexpected byte 0x00 after the JSON value"),
    ])
    func rejectsInvalidInput(text: String, offset: Int, reason: String) {
        #expect(throws: JSONParseError(offset: offset, reason: reason)) {
            try JSONValue(parsing: text)
        }
    }

    @Test(
        arguments: [
            ([0x22, 0xFF, 0x22], 1),  // never valid in UTF-8
            ([0x22, 0xC0, 0x80, 0x22], 1),  // overlong NUL
            ([0x22, 0xE0, 0x80, 0x80, 0x22], 1),  // overlong
            ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),  // encoded surrogate
            ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),  // above U+10FFFF
            ([0x22, 0x61, 0xC3, 0x22], 2),  // truncated sequence
            ([0x22, 0x5C, 0x6E, 0x80, 0x22], 3),  // stray continuation after an escape
        ] as [([UInt8], Int)])
    func rejectsInvalidUTF8(bytes: [UInt8], offset: Int) {
        #expect(throws: JSONParseError(offset: offset, reason: "invalid UTF-8 in string")) {
            try JSONValue(parsing: bytes)
        }
    }

    @Test func describesErrorsWithOffsetAndReason() {
        let error = JSONParseError(offset: 17, reason: "expected ':' after object key")
        #expect(error.description == "invalid JSON at byte 17: expected ':' after object key")
    }

    @Test func allowsNestingUpTo512Levels() throws {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        var value = try JSONValue(parsing: deepest)
        var depth = 0
        while case .array(let elements) = value {
            depth += 1
            value = elements.first ?? .null
        }
        #expect(depth == 512)
    }

    @Test func rejectsNestingBeyond512Levels() {
        // 512 containers, then one more array at offset 256 * 6.
        let tooDeep = String(repeating: #"{"a":["#, count: 256) + "[1]" + String(repeating: "]}", count: 256)
        #expect(throws: JSONParseError(offset: 1536, reason: "nesting exceeds the maximum depth of 512")) {
            try JSONValue(parsing: tooDeep)
        }
        let huge = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParseError(offset: 512, reason: "nesting exceeds the maximum depth of 512")) {
            try JSONValue(parsing: huge)
        }
    }
}
