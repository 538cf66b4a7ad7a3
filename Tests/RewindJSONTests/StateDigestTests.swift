import RewindJSON
import Testing

@Suite struct StateDigestTests {
    @Test(arguments: [
        ("", "cbf29ce484222325"),
        ("a", "af63dc4c8601ec8c"),
        ("foobar", "85944171f73967e8"),
    ])
    func isFNV1a(text: String, hex: String) {
        #expect(StateDigest(canonicalBytes: Array(text.utf8)).description == hex)
        #expect(StateDigest(canonicalBytes: text.utf8.lazy.map { $0 }).description == hex)
    }

    @Test func digestOfAValueIsFixedAcrossRunsAndMachines() {
        let value: JSONValue = ["b": [true, nil], "a": 1]
        #expect(value.canonicalString == #"{"a":1,"b":[true,null]}"#)
        #expect(value.digest(by: .chained) == StateDigest(rawValue: 0x0a3f_a33d_86c1_b215))
    }

    @Test func equalValuesHaveEqualDigests() throws {
        let built = JSONValue.object(JSONObject([("z", [1, 2]), ("a", "x")]))
        let parsed = try JSONValue(parsing: #" { "a" : "x", "z" : [ 1, 2 ] } "#)
        #expect(built.digest == parsed.digest)
        #expect(built.digest != JSONValue.object(JSONObject([("z", [2, 1]), ("a", "x")])).digest)
        #expect(JSONValue.int(1).digest != JSONValue.double(1).digest)
    }

    @Test func descriptionIsSixteenLowercaseHexDigits() {
        #expect(StateDigest(rawValue: 0xAB).description == "00000000000000ab")
        #expect(StateDigest(rawValue: .max).description == "ffffffffffffffff")
    }
}
