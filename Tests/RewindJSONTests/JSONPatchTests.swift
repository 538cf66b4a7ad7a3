import RewindJSON
import Testing

/// An album of `count` photos with ids 0..<count and titles "t0", "t1"...
func photos(_ count: Int) -> JSONValue {
    ["photos": .array((0..<count).map { ["id": .int($0), "title": .string("t\($0)"), "tags": ["x"]] })]
}

@Suite struct JSONPatchTests {
    func expectPatch(from old: JSONValue, to new: JSONValue, is operations: [JSONPatch.Operation]) throws {
        let patch = JSONPatch.between(old, new)
        #expect(patch.operations == operations)
        #expect(try old.applying(patch) == new)
    }

    @Test func equalValuesGiveAnEmptyPatch() {
        #expect(JSONPatch.between(photos(5), photos(5)).isEmpty)
        #expect(JSONPatch.between(nil, nil) == JSONPatch())
    }

    @Test func changingOneFieldIsOneSet() throws {
        var new = photos(5)
        new = try new.applying(JSONPatch([.set("photos[3].title", "b")]))
        try expectPatch(from: photos(5), to: new, is: [.set("photos[3].title", "b")])
    }

    @Test func objectKeysAreRemovedAddedAndChanged() throws {
        try expectPatch(
            from: ["a": 1, "b": 2, "d": [1]], to: ["b": 3, "c": 4, "d": [1]],
            is: [
                .remove("a"), .set("b", 3), .set("c", 4),
            ])
    }

    @Test func aChangeOfTypeIsOneSet() throws {
        try expectPatch(from: ["a": [1, 2]], to: ["a": ["x": 1]], is: [.set("a", ["x": 1])])
        try expectPatch(from: 1, to: "x", is: [.set(.root, "x")])
        try expectPatch(from: ["a": 1], to: ["a": 1.0], is: [.set("a", 1.0)])
    }

    @Test func insertingOrRemovingOneElementAnywhereIsOneSplice() throws {
        try expectPatch(from: [1, 2, 3], to: [1, 9, 2, 3], is: [.splice(.root, range: 1..<1, with: [9])])
        try expectPatch(from: [1, 2, 3], to: [0, 1, 2, 3], is: [.splice(.root, range: 0..<0, with: [0])])
        try expectPatch(from: [1, 2, 3], to: [1, 2, 3, 4], is: [.splice(.root, range: 3..<3, with: [4])])
        try expectPatch(from: [1, 2, 3, 4], to: [1, 3, 4], is: [.splice(.root, range: 1..<2, with: [])])
        var big = photos(1000)
        try big.apply(JSONPatch([.splice("photos", range: 500..<501, with: [])]))
        try expectPatch(from: photos(1000), to: big, is: [.splice("photos", range: 500..<501, with: [])])
    }

    @Test func editsNextToAnInsertionOrRemovalRecurse() throws {
        // Photo 1 removed and photo 4 retitled: the overlap aligns on the right.
        let old = photos(6)
        let new = try old.applying(JSONPatch([.set("photos[4].title", "new"), .splice("photos", range: 1..<2, with: [])]))
        try expectPatch(
            from: old, to: new,
            is: [
                .set("photos[4].title", "new"), .splice("photos", range: 1..<2, with: []),
            ])
        // Photo 1 retitled and a photo appended after photo 2: the overlap aligns on the left.
        let appended = try old.applying(
            JSONPatch([
                .set("photos[1].title", "new"), .splice("photos", range: 3..<3, with: ["extra"]),
            ]))
        try expectPatch(
            from: old, to: appended,
            is: [
                .set("photos[1].title", "new"), .splice("photos", range: 3..<3, with: ["extra"]),
            ])
    }

    @Test func wholesaleChangesAreOneSplice() throws {
        try expectPatch(from: [1, 2, 3], to: [4, 5, 6], is: [.splice(.root, range: 0..<3, with: [4, 5, 6])])
        try expectPatch(from: [1, 2, 3], to: [7, 8], is: [.splice(.root, range: 0..<3, with: [7, 8])])
    }

    @Test func nestedArraysAndOddKeysKeepTheirPaths() throws {
        let old: JSONValue = ["odd key": [[1, 2], [3]], "é": ["x": true]]
        let new: JSONValue = ["odd key": [[1, 2, 5], [3]], "é": ["x": false]]
        try expectPatch(
            from: old, to: new,
            is: [
                .splice(#"["odd key"][0]"#, range: 2..<2, with: [5]), .set(#"["é"].x"#, false),
            ])
    }
}

/// Patches of identified arrays: a moved element costs its own size, not its neighbours'.
@Suite struct JSONPatchIdentityTests {
    func photos(_ ids: [Int]) -> JSONValue {
        .array(ids.map { ["id": .int($0), "title": .string("photo \($0)"), "tags": ["a", "b", "c"]] })
    }

    @Test func aMoveIsTwoSplicesOfOneElement() throws {
        let ids = Array(0..<100)
        var moved = ids
        moved.insert(moved.remove(at: 10), at: 80)
        let patch = JSONPatch.between(photos(ids), photos(moved))
        #expect(patch.operations == [.splice(.root, range: 10..<11, with: []), .splice(.root, range: 80..<80, with: [photos([10]).arrayElements[0]])])
        #expect(try photos(ids).applying(patch) == photos(moved))
    }

    @Test func movesDeletesAndEditsTogetherRebuildTheNewArray() throws {
        var random = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let old = Array(0..<Int(random.next() % 20))
            var new = old.shuffled(using: &random).filter { _ in random.next() % 4 != 0 }
            new.insert(100 + Int(random.next() % 5), at: Int(random.next() % UInt64(new.count + 1)))
            var newValue = photos(new)
            if case .array(var elements) = newValue, !elements.isEmpty {
                elements[0] = ["id": elements[0]["id"] ?? nil, "title": "edited"]
                newValue = .array(elements)
            }
            #expect(try photos(old).applying(.between(photos(old), newValue)) == newValue)
        }
    }
}

extension JSONValue {
    fileprivate var arrayElements: [JSONValue] {
        if case .array(let elements) = self { elements } else { [] }
    }
}
