import RewindJSON
import Testing

@Suite struct JSONPatchApplyTests {
    let value: JSONValue = ["photos": [["title": "a"], ["title": "b"]], "tags": ["x", "y", "z"], "a": ["b": 1]]

    func failure(_ operations: [JSONPatch.Operation]) -> String {
        do {
            _ = try value.applying(JSONPatch(operations))
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func appliesEachKindOfOperation() throws {
        let patched = try value.applying(
            JSONPatch([
                .set("photos[1].title", "B"),
                .set("a.c", [1]),
                .remove("a.b"),
                .splice("tags", range: 1..<2, with: ["Y1", "Y2"]),
                .splice("a.c", range: 1..<1, with: [2]),
            ]))
        #expect(patched == ["photos": [["title": "a"], ["title": "B"]], "tags": ["x", "Y1", "Y2", "z"], "a": ["c": [1, 2]]])
        #expect(try value.applying(JSONPatch([.set(.root, 5)])) == 5)
    }

    @Test func applyingLeavesTheOriginalAloneAndApplyMutates() throws {
        let original = value
        var copy = value
        try copy.apply(JSONPatch([.set("tags[0]", "changed")]))
        #expect(value == original)
        #expect(copy["tags[0]"] == "changed")
    }

    @Test func applyEditsUniquelyHeldStorageInPlace() throws {
        func photosBuffer(_ value: JSONValue) -> UInt? {
            guard case .object(let root) = value, case .array(let photos)? = root["photos"] else { return nil }
            return photos.withUnsafeBufferPointer { $0.baseAddress.map { UInt(bitPattern: $0) } }
        }
        var state = photos(1_000)
        let before = photosBuffer(state)
        try state.apply(JSONPatch([.set("photos[500].title", "new")]))
        #expect(state["photos[500].title"] == "new")
        #expect(photosBuffer(state) == before)
    }

    @Test func reportsPathsThatDoNotExist() {
        #expect(
            failure([.set("photos[7].title", "x")])
                == "cannot apply patch operation 0: no element 7 in the array at photos, which has 2")
        #expect(
            failure([.set("tags[3]", "w")])
                == "cannot apply patch operation 0: no element 3 in the array at tags, which has 3")
        #expect(
            failure([.set("tags", []), .remove("a.missing")])
                == #"cannot apply patch operation 1: no key "missing" in the object at a"#)
        #expect(
            failure([.set("x.y", 1)])
                == #"cannot apply patch operation 0: no key "x" in the object at ."#)
        #expect(
            failure([.set("photos.title", 1)])
                == "cannot apply patch operation 0: expected an object at photos, found an array")
        #expect(
            failure([.set("a.b.c", 1)])
                == "cannot apply patch operation 0: expected an object at a.b, found a number")
        #expect(
            failure([.splice("a", range: 0..<0, with: [])])
                == "cannot apply patch operation 0: expected an array at a, found an object")
        #expect(
            failure([.splice("tags", range: 2..<9, with: [])])
                == "cannot apply patch operation 0: range 2..<9 is out of bounds of the array at tags, which has 3")
        #expect(
            failure([.remove("tags[0]")])
                == "cannot apply patch operation 0: remove at tags[0] must address an object member; array elements are spliced")
        #expect(
            failure([.remove(.root)])
                == "cannot apply patch operation 0: remove at . must address an object member; array elements are spliced")
        #expect(
            failure([.set(JSONPath([.key("tags"), .index(-1)]), 1)])
                == "cannot apply patch operation 0: no element -1 in the array at tags, which has 3")
    }

    @Test func errorsCarryTheirOperationIndex() {
        #expect(throws: JSONPatchError(kind: .inapplicable, operationIndex: 1, reason: "no element 5 in the array at tags, which has 3")) {
            try value.applying(JSONPatch([.set("tags[0]", 1), .set("tags[5]", 1)]))
        }
    }
}
