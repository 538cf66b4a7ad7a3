import RewindJSON
import Testing

@Suite struct SerializationTests {
    @Test func writesCanonicalTextWithSortedKeysAndNoWhitespace() {
        let value: JSONValue = ["b": [1, -2, 0], "a": ["z": nil, "y": false], "c": true]
        #expect(value.canonicalString == #"{"a":{"y":false,"z":null},"b":[1,-2,0],"c":true}"#)
    }

    @Test func sortsKeysByUTF8Bytes() {
        let value: JSONValue = ["é": 1, "z": 2, "Z": 3, "e\u{301}": 4]
        #expect(value.canonicalString == "{\"Z\":3,\"e\u{301}\":4,\"z\":2,\"é\":1}")
    }

    @Test func escapesStringsMinimally() {
        let value = JSONValue.string("q\" b\\ s/ \u{8}\u{C}\n\r\t \u{0}\u{1F} é 🎞 \u{7F}")
        #expect(value.canonicalString == #""q\" b\\ s/ \b\f\n\r\t \u0000\u001f é 🎞 "# + "\u{7F}\"")
    }

    @Test(arguments: [
        (Int.max, "9223372036854775807"),
        (Int.min, "-9223372036854775808"),
        (0, "0"),
        (-7, "-7"),
        (1_000, "1000"),
        (10, "10"),
        (99, "99"),
        (-100, "-100"),
        (1_795_503_388_810_740, "1795503388810740"),
    ])
    func writesIntegersInDecimal(value: Int, text: String) {
        #expect(JSONValue.int(value).canonicalString == text)
    }

    /// Digits are written two at a time from the last: each length, odd and even, and each
    /// power of ten and the number before it.
    @Test func writesIntegersOfEveryLength() {
        var power = 1
        for _ in 0..<19 {
            for value in [power, power - 1, power + 1, -power, 7 * power, -(power - 1)] {
                #expect(JSONValue.int(value).canonicalString == String(value))
            }
            if power <= Int.max / 10 { power *= 10 }
        }
    }

    @Test(arguments: [
        (0.1, "0.1"),
        (3.0, "3.0"),
        (-0.0, "-0.0"),
        (1e-7, "1e-07"),
        (1.5e20, "1.5e+20"),
        (123456.789, "123456.789"),
        (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
        (Double.leastNonzeroMagnitude, "5e-324"),
    ])
    func writesDoublesInShortestRoundTripForm(value: Double, text: String) throws {
        #expect(JSONValue.double(value).canonicalString == text)
        #expect(try JSONValue(parsing: text) == .double(value))
    }

    @Test func writesNonFiniteDoublesAsNull() {
        let value: JSONValue = [.double(.infinity), .double(-.infinity), .double(.nan)]
        #expect(value.canonicalString == "[null,null,null]")
    }

    @Test func appendsToAnExistingBuffer() {
        var buffer = Array("prefix:".utf8)
        JSONValue.array([1, "x"]).canonicalBytes(into: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == #"prefix:[1,"x"]"#)
    }

    @Test func emptyContainers() {
        #expect(JSONValue.array([]).canonicalString == "[]")
        #expect(JSONValue.object(JSONObject()).canonicalString == "{}")
        #expect(JSONValue.string("").canonicalString == #""""#)
    }

    @Test func canonicalTextParsesBackToTheSameValue() throws {
        var random = RandomJSON(seed: 7)
        for _ in 0..<500 {
            let value = random.value()
            let bytes = value.canonicalBytes
            let reparsed = try JSONValue(parsing: bytes)
            #expect(reparsed == value)
            #expect(reparsed.canonicalBytes == bytes)
        }
    }
}
