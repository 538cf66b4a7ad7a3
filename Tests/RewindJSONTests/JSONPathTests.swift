import RewindJSON
import Testing

@Suite struct JSONPathTests {
    @Test(arguments: [
        (JSONPath.root, "."),
        (JSONPath([.key("login"), .key("username")]), "login.username"),
        (JSONPath([.key("photos"), .index(3), .key("title")]), "photos[3].title"),
        (JSONPath([.index(0), .index(12)]), "[0][12]"),
        (JSONPath([.key("odd key"), .key("_ok9")]), #"["odd key"]._ok9"#),
        (JSONPath([.key("a"), .key("9lives"), .key("")]), #"a["9lives"][""]"#),
        (JSONPath([.key("quote\"back\\slash\nnew")]), #"["quote\"back\\slash\nnew"]"#),
        (JSONPath([.key("é")]), #"["é"]"#),
        (JSONPath([.key("photos"), .id(12), .key("title")]), "photos[id=12].title"),
        (JSONPath([.key("items"), .id("a \"b\""), .key("done")]), #"items[id="a \"b\""].done"#),
        (JSONPath([.id(true), .id(nil), .id(-1.5)]), "[id=true][id=null][id=-1.5]"),
        (JSONPath([.key("photos"), .wildcard, .key("status")]), "photos[*].status"),
        (JSONPath([.wildcard, .wildcard]), "[*][*]"),
    ])
    func describesAndParsesBack(path: JSONPath, text: String) throws {
        #expect(path.description == text)
        #expect(try JSONPath(parsing: text) == path)
    }

    @Test func acceptsALeadingDotAndTheEmptyRoot() throws {
        #expect(try JSONPath(parsing: ".login.username") == JSONPath([.key("login"), .key("username")]))
        #expect(try JSONPath(parsing: ".[2]") == JSONPath([.index(2)]))
        #expect(try JSONPath(parsing: "") == .root)
        #expect(try JSONPath(parsing: ".") == .root)
    }

    @Test func stringLiteralsParse() {
        let path: JSONPath = "photos[3].title"
        #expect(path.components == [.key("photos"), .index(3), .key("title")])
    }

    @Test func appendingAndParent() {
        let path = JSONPath.root.appending(.key("photos")).appending(.index(1))
        #expect(path == "photos[1]")
        #expect(path.parent == "photos")
        #expect(JSONPath.root.parent == .root)
        #expect(path.isRoot == false)
        #expect(JSONPath.root.isRoot)
    }

    @Test func keysCompareByBytes() {
        #expect(JSONPath([.key("\u{E9}")]) != JSONPath([.key("e\u{301}")]))
    }

    @Test(arguments: [
        ("photos[x]", 7, "expected an index, a quoted key, id=VALUE or * after '['"),
        ("photos[-1]", 7, "expected an index, a quoted key, id=VALUE or * after '['"),
        ("photos[i]", 8, "expected an index, a quoted key, id=VALUE or * after '['"),
        ("photos[id=]", 10, "invalid id: unexpected character ']', expected a value"),
        ("photos[id=[1]]", 10, "an id is a number, a quoted string, true, false or null"),
        ("photos[id=12", 12, "expected ']'"),
        ("photos[id=12a]", 10, #"an id that is not a number, true, false or null is quoted, as in photos[id="12a"]"#),
        (
            "notes[id=0B3F2E4A-1C5D-4E6F-8A9B-0C1D2E3F4A5B].title", 9,
            #"an id that is not a number, true, false or null is quoted, as in notes[id="0B3F2E4A-1C5D-4E6F-8A9B-0C1D2E3F4A5B"].title"#
        ),
        ("notes[id=ab c]", 9, "invalid id: unexpected character 'a', expected a value"),
        ("photos[*x]", 8, "expected ']'"),
        ("photos[3", 8, "expected ']'"),
        ("a..b", 2, "expected a key"),
        ("a.", 2, "expected a key"),
        ("..", 1, "expected a key"),
        ("9a", 0, "expected a key"),
        ("a b", 1, "unexpected character ' ', expected '.' or '['"),
        ("a[01]", 2, "leading zeros are not allowed in an index"),
        ("a[99999999999999999999]", 2, "index is too large"),
        (#"a["x]"#, 2, "invalid quoted key: unterminated string"),
        (#"a["\q"]"#, 3, "invalid quoted key: invalid escape sequence"),
        (#"a["x"x]"#, 5, "expected ']'"),
    ])
    func rejectsInvalidSyntax(text: String, offset: Int, reason: String) {
        #expect(throws: JSONPathError(text: text, offset: offset, reason: reason)) {
            try JSONPath(parsing: text)
        }
    }

    @Test func describesErrorsWithTheText() {
        #expect(throws: JSONPathError.self) { try JSONPath(parsing: "photos[x]") }
        do {
            _ = try JSONPath(parsing: "photos[x]")
        } catch {
            #expect(error.description == #"invalid path "photos[x]": expected an index, a quoted key, id=VALUE or * after '['"#)
        }
    }

    @Test func coversMatchesWildcardsAndPrefixes() throws {
        let pattern = try JSONPath(parsing: "photos[*].title")
        #expect(pattern.covers("photos[id=3].title"))
        #expect(pattern.covers(try JSONPath(parsing: "photos[2].title.x")))
        #expect(!pattern.covers("photos[2]"))
        #expect(!pattern.covers("albums[2].title"))
        #expect(pattern.hasWildcard && !pattern.isPositional)
        #expect(JSONPath("photos[2]").isPositional)
    }
}
