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
        ("photos[x]", 7, "expected an index or a quoted key after '['"),
        ("photos[-1]", 7, "expected an index or a quoted key after '['"),
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
            #expect(error.description == #"invalid path "photos[x]": expected an index or a quoted key after '['"#)
        }
    }
}
