import RewindJSON
import Testing

@Suite struct JSONDiffTests {
    func album(titles: [String], ids: [Int]? = nil) -> JSONValue {
        let ids = ids ?? Array(titles.indices)
        return ["photos": .array(zip(ids, titles).map { ["id": .int($0), "title": .string($1)] })]
    }

    @Test func changingOneTitleIsOneChange() {
        let changes = JSONDiff.changes(from: album(titles: ["v", "w", "x", "a", "y"]), to: album(titles: ["v", "w", "x", "b", "y"]))
        #expect(changes == [JSONChange(path: "photos[id=3].title", kind: .changed(from: "a", to: "b"))])
        #expect(changes.map(\.description) == [#"photos[id=3].title: "a" -> "b""#])
    }

    @Test func equalValuesHaveNoChanges() {
        #expect(JSONDiff.changes(from: album(titles: ["a"]), to: album(titles: ["a"])).isEmpty)
    }

    @Test func objectsCompareKeyByKey() {
        let changes = JSONDiff.changes(from: ["a": 1, "b": ["c": 2, "d": 3]], to: ["b": ["c": 2, "d": 4], "e": nil])
        #expect(
            changes == [
                JSONChange(path: "a", kind: .removed(1)),
                JSONChange(path: "b.d", kind: .changed(from: 3, to: 4)),
                JSONChange(path: "e", kind: .added(nil)),
            ])
        #expect(changes.map(\.description) == ["a: - 1", "b.d: 3 -> 4", "e: + null"])
    }

    /// Objects built apart share no storage: their members pair by key all the same, equal
    /// strings past a small string's 15 bytes are equal, and strings compare by their bytes.
    @Test func objectsBuiltApartCompareByTheirBytes() {
        func photo(_ title: String) -> JSONValue {
            // A key past 15 bytes, made anew at each call: its own storage.
            let key = String(repeating: "k", count: 20) + "ey"
            return [key: .string("Photo number " + String(repeating: "é", count: 10)), "title": .string(title), "n": 1]
        }
        let title = "a title longer than fifteen bytes"
        #expect(JSONDiff.changes(from: photo(title), to: photo(title)).isEmpty)
        #expect(
            JSONDiff.changes(from: photo(title), to: photo(title + "!"))
                == [JSONChange(path: "title", kind: .changed(from: .string(title), to: .string(title + "!")))])
        // The same text in two normal forms: two byte sequences, so a change.
        #expect(JSONDiff.changes(from: photo("caf\u{E9}"), to: photo("cafe\u{301}")).count == 1)
        #expect(JSONDiff.changes(from: ["n": 1, "m": ["x": 1]], to: ["n": 1, "m": ["x": 2]]).map(\.description) == ["m.x: 1 -> 2"])
    }

    @Test func aChangeOfTypeIsOneChange() {
        #expect(
            JSONDiff.changes(from: ["a": [1]], to: ["a": ["x": 1]])
                == [JSONChange(path: "a", kind: .changed(from: [1], to: ["x": 1]))])
        #expect(JSONDiff.changes(from: 1, to: 1.0) == [JSONChange(path: .root, kind: .changed(from: 1, to: 1.0))])
    }

    @Test func arraysWithoutIDsCompareIndexByIndex() {
        #expect(
            JSONDiff.changes(from: [1, 2, 3], to: [1, 5]) == [
                JSONChange(path: "[1]", kind: .changed(from: 2, to: 5)),
                JSONChange(path: "[2]", kind: .removed(3)),
            ])
        #expect(
            JSONDiff.changes(from: ["t": []], to: ["t": ["x", "y"]]) == [
                JSONChange(path: "t[0]", kind: .added("x")),
                JSONChange(path: "t[1]", kind: .added("y")),
            ])
    }

    @Test func arraysWithUniqueIDsMatchByID() {
        let old = album(titles: ["one", "two", "three"], ids: [1, 2, 3])
        let new = album(titles: ["three", "ONE", "four"], ids: [3, 1, 4])
        let changes = JSONDiff.changes(from: old, to: new)
        #expect(
            changes.map(\.description) == [
                "photos[id=3]: moved [2] -> [0]",
                #"photos[id=2]: - {"id":2,"title":"two"}"#,
                #"photos[id=1].title: "one" -> "ONE""#,
                #"photos[id=4]: + {"id":4,"title":"four"}"#,
            ])
    }

    @Test func aReorderIsTheFewestMoves() {
        let old = album(titles: ["a", "b", "c", "d", "e"], ids: [1, 2, 3, 4, 5])
        let new = album(titles: ["e", "a", "b", "d", "c"], ids: [5, 1, 2, 4, 3])
        #expect(
            JSONDiff.changes(from: old, to: new) == [
                JSONChange(path: "photos[id=5]", kind: .moved(from: 4, to: 0)),
                JSONChange(path: "photos[id=3]", kind: .moved(from: 2, to: 4)),
            ])
    }

    @Test func removingTheFirstOfManyIsOneRemoval() {
        let titles = (0..<5).map { "t\($0)" }
        let changes = JSONDiff.changes(from: album(titles: titles), to: album(titles: Array(titles.dropFirst()), ids: Array(1..<5)))
        #expect(changes == [JSONChange(path: "photos[id=0]", kind: .removed(["id": 0, "title": "t0"]))])
    }

    @Test func idsPrintAsJSONScalars() {
        let old: JSONValue = ["items": [["id": "a-1", "done": false], ["id": true, "done": false]]]
        let new: JSONValue = ["items": [["id": "a-1", "done": true], ["id": true, "done": true]]]
        #expect(JSONDiff.changes(from: old, to: new).map(\.description) == [#"items[id="a-1"].done: false -> true"#, "items[id=true].done: false -> true"])
    }

    @Test func anEmptyArrayGainingElementsNamesThemByID() {
        #expect(JSONDiff.changes(from: ["t": []], to: ["t": [["id": 7]]]) == [JSONChange(path: "t[id=7]", kind: .added(["id": 7]))])
    }

    @Test func duplicateOrMissingIDsFallBackToIndices() {
        let duplicated: JSONValue = [["id": 1, "v": "a"], ["id": 1, "v": "b"]]
        let swapped: JSONValue = [["id": 1, "v": "b"], ["id": 1, "v": "a"]]
        #expect(
            JSONDiff.changes(from: duplicated, to: swapped) == [
                JSONChange(path: "[0].v", kind: .changed(from: "a", to: "b")),
                JSONChange(path: "[1].v", kind: .changed(from: "b", to: "a")),
            ])
        let nonScalar: JSONValue = [["id": [1]], ["id": [2]]]
        #expect(JSONDiff.changes(from: nonScalar, to: [["id": [2]], ["id": [1]]]).count == 2)
        #expect(JSONDiff.changes(from: [["id": 1], 5], to: [5, ["id": 1]]).count == 2)
    }

    /// Additions and changes name paths of the new value that hold what they report.
    @Test func addedAndChangedPathsResolveInTheNewValue() {
        var random = RandomJSON(seed: 99)
        var failures: [String] = []
        for index in 0..<2_000 {
            let old = random.value()
            let new = random.mutated(old, edits: random.int(1...3))
            let changes = JSONDiff.changes(from: old, to: new)
            if (old == new) != changes.isEmpty {
                failures.append("case \(index): \(changes.count) changes between \(old) and \(new)")
            }
            for change in changes {
                switch change.kind {
                case .added(let value), .changed(_, let value):
                    if new[change.path] != value {
                        failures.append("case \(index): \(change) does not hold in \(new)")
                    }
                case .moved(_, let to):
                    if new[change.path] == nil || new[change.path.parent.appending(.index(to))] != new[change.path] {
                        failures.append("case \(index): \(change) does not hold in \(new)")
                    }
                case .removed(let value):
                    if old[change.path] != value {
                        failures.append("case \(index): \(change) does not hold in \(old)")
                    }
                }
            }
        }
        #expect(failures.count == 0, "\(failures.first ?? "")")
    }
}
