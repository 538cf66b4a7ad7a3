import RewindJSON
import Testing

@Suite struct JSONObjectTests {
    @Test func initializerSortsByUTF8BytesAndLastDuplicateWins() {
        let object = JSONObject([("b", 1), ("a", 2), ("é", 3), ("Z", 4), ("b", 5), ("", 6)])
        #expect(object.keys == ["", "Z", "a", "b", "é"])
        #expect(object.values == [6, 4, 2, 5, 3])
        #expect(object.count == 5)
    }

    @Test func largeUnsortedInputsWithDuplicatesAgreeWithSuccessiveAssignment() {
        var generator = SplitMix64(seed: 3)
        for count in [0, 1, 2, 5, 16, 17, 40, 300] {
            let pairs = (0..<count).map { index in
                ("k\(Int.random(in: 0..<(count / 2 + 1), using: &generator))", JSONValue.int(index))
            }
            var expected = JSONObject()
            for (key, value) in pairs {
                expected[key] = value
            }
            let object = JSONObject(pairs)
            #expect(object == expected)
            #expect(object.keys == expected.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        }
    }

    @Test func keysAreComparedByBytesNotByCanonicalEquivalence() {
        // "é" precomposed (C3 A9) and decomposed (65 CC 81) are equal Swift strings,
        // but different JSON keys.
        let object = JSONObject([("\u{E9}", 1), ("e\u{301}", 2)])
        #expect(object.count == 2)
        #expect(object.keys.map { Array($0.utf8) } == [[0x65, 0xCC, 0x81], [0xC3, 0xA9]])
        #expect(object["\u{E9}"] == 1)
        #expect(object["e\u{301}"] == 2)
    }

    @Test func subscriptInsertsReplacesAndRemoves() {
        var object = JSONObject()
        #expect(object.isEmpty)
        object["m"] = 1
        object["c"] = 2
        object["x"] = 3
        object["a"] = 4
        #expect(object.keys == ["a", "c", "m", "x"])
        object["c"] = "two"
        #expect(object["c"] == "two")
        object["m"] = nil
        object["missing"] = nil
        #expect(object.keys == ["a", "c", "x"])
        #expect(object.values == [4, "two", 3])
        #expect(object["m"] == JSONValue?.none)
    }

    @Test func missingKeysAreNoneAndNullMembersAreNull() {
        // JSONValue is ExpressibleByNilLiteral, which must not blur these two.
        let object: JSONObject = ["a": nil]
        #expect(object["a"] == .some(.null))
        #expect(object["b"] == JSONValue?.none)
    }

    @Test func iterationIsInKeyOrder() {
        let object: JSONObject = ["b": true, "a": nil, "c": 1.5]
        #expect(object.map(\.key) == ["a", "b", "c"])
        #expect(object.map(\.value) == [nil, true, 1.5])
    }

    @Test func equalityAndHashingIgnoreConstructionOrder() {
        let first = JSONObject([("x", 1), ("y", [1, 2])])
        let second = JSONObject([("y", [1, 2]), ("x", 1)])
        #expect(first == second)
        #expect(Set([first, second]).count == 1)
        #expect(first != JSONObject([("x", 1)]))
    }
}

@Suite struct JSONValueTests {
    @Test func literalsBuildTheExpectedCases() {
        let value: JSONValue = ["a": [1, 2.5, "s", true, nil], "b": [:]]
        #expect(
            value
                == .object(
                    JSONObject([
                        ("a", .array([.int(1), .double(2.5), .string("s"), .bool(true), .null])),
                        ("b", .object(JSONObject())),
                    ])))
    }

    @Test func equalityIsExact() {
        #expect(JSONValue.int(1) != .double(1))
        #expect(JSONValue.double(0.0) != .double(-0.0))
        #expect(JSONValue.double(.nan) == .double(.nan))
        #expect(JSONValue.string("\u{E9}") != .string("e\u{301}"))
        #expect(Set<JSONValue>([.int(1), .double(1), .string("1"), .bool(true), .null]).count == 5)
    }

    @Test func pathSubscriptLooksUpNestedValues() {
        let value: JSONValue = ["photos": [["title": "a"], ["title": "b", "tags": ["x"]]]]
        #expect(value[JSONPath.root] == value)
        #expect(value["photos[1].title"] == "b")
        #expect(value["photos[1].tags[0]"] == "x")
        #expect(value["photos[2]"] == JSONValue?.none)
        #expect(value["photos.title"] == JSONValue?.none)
        #expect(value["photos[0].missing"] == JSONValue?.none)
    }
}
