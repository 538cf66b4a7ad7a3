import RewindJSON
import Testing

@Suite struct JSONPatchSerializationTests {
    @Test func writesTheCompactForm() throws {
        let patch = JSONPatch([
            .set("photos[3].title", "b"), .remove("draft"), .splice("tags", range: 0..<1, with: ["x"]), .set(.root, nil),
        ])
        #expect(patch.json.canonicalString == #"[["s",["photos",3,"title"],"b"],["r",["draft"]],["p",["tags"],0,1,["x"]],["s",[],null]]"#)
        #expect(try JSONPatch(json: patch.json) == patch)
    }

    @Test(arguments: [
        (#"{"s":1}"#, "invalid patch JSON: expected an array of operations, found an object"),
        (#"[["s",[]]]"#, #"invalid patch JSON operation 0: expected 3 elements in a "s" operation, found 2"#),
        (#"[["r",["a"]],["x",[]]]"#, #"invalid patch JSON operation 1: unknown operation tag "x""#),
        (#"[[1]]"#, "invalid patch JSON operation 0: expected an array starting with a tag, found an array"),
        (#"[["r","a"]]"#, "invalid patch JSON operation 0: expected a path array, found a string"),
        (#"[["r",["a",-1]]]"#, "invalid patch JSON operation 0: expected path components to be strings or non-negative integers, found -1"),
        (#"[["r",["a",1.0]]]"#, "invalid patch JSON operation 0: expected path components to be strings or non-negative integers, found 1.0"),
        (#"[["p",["a"],2,1,[]]]"#, "invalid patch JSON operation 0: expected a splice range of two integers 0 <= start <= end"),
        (#"[["p",["a"],0,1,{}]]"#, "invalid patch JSON operation 0: expected an array of values to splice in, found an object"),
    ])
    func rejectsMalformedJSON(text: String, description: String) throws {
        let json = try JSONValue(parsing: text)
        do {
            _ = try JSONPatch(json: json)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == description)
            #expect(error.kind == .malformed)
        }
    }
}
