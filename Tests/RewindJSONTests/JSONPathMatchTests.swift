import RewindJSON
import Testing

/// Selecting by id and by `[*]`: what `matches(of:)` and the subscript find.
@Suite struct JSONPathMatchTests {
    let state: JSONValue = [
        "items": [["id": 3, "title": "milk", "done": false], ["id": "x", "title": "eggs", "done": true]],
        "tags": ["a", "b"],
        "dupes": [["id": 1, "v": "first"], ["id": 1, "v": "second"]],
    ]

    func matches(_ path: JSONPath) -> [String] {
        state.matches(of: path).map { "\($0.path) = \($0.value)" }
    }

    @Test func anIDSelectsItsElementWhereverItSits() {
        #expect(matches("items[id=3].title") == [#"items[id=3].title = "milk""#])
        #expect(matches(#"items[id="x"].done"#) == [#"items[id="x"].done = true"#])
        #expect(state["items[id=3].title"] == "milk")
        #expect(matches("items[id=9]").isEmpty)
        #expect(matches(#"items[id="3"]"#).isEmpty, "a string id is not a number id")
    }

    @Test func aWildcardNamesIdentifiedElementsByID() {
        #expect(matches("items[*].done") == ["items[id=3].done = false", #"items[id="x"].done = true"#])
        #expect(matches("tags[*]") == [#"tags[0] = "a""#, #"tags[1] = "b""#])
        #expect(matches("items[0][*]") == ["items[0].done = false", "items[0].id = 3", #"items[0].title = "milk""#])
        #expect(state["items[*].done"] == nil, "the subscript names one place")
    }

    @Test func aDuplicatedIDSelectsEachElementByIndex() {
        #expect(matches("dupes[id=1].v") == [#"dupes[0].v = "first""#, #"dupes[1].v = "second""#])
        #expect(state["dupes[id=1]"] == nil)
        #expect(matches("dupes[*].v") == [#"dupes[0].v = "first""#, #"dupes[1].v = "second""#])
    }

    @Test func nothingIsNamedInsideTheWrongKind() {
        #expect(matches("tags[id=1]").isEmpty)
        #expect(matches("items[id=3].title[*]").isEmpty)
        #expect(matches("missing[*]").isEmpty)
    }

    @Test func aPatchRefusesSelectors() {
        #expect(throws: JSONPatchError.self) { try ([["id": 1]] as JSONValue).applying(JSONPatch([.set("[id=1]", 2)])) }
    }
}
