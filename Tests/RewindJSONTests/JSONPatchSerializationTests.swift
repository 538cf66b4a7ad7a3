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
        // Read from text, a patch that is not one is refused the same way.
        #expect(throws: JSONPatchError.self) { try JSONPatch(parsing: text) }
        do {
            _ = try JSONPatch(parsing: text)
        } catch {
            #expect("\(error)" == description)
        }
    }

    /// Reading a patch from text takes a direct way for the form the writer produces and the
    /// general way for anything else; both give what the general reading gives.
    @Test(arguments: [
        #"[]"#, #" [ [ "s" , [ "a" , 0 ] , { "b" : [ 1 , 2 ] } ] ] "#, #"[["\u0073",["a"],1]]"#, #"[["r",["a\"b"]]]"#,
        #"[["p",["tags"],0,0,[]],["p",[],1,3,[null,true]]]"#, #"[["s",[],null]]"#, #"[["r",["a",-0]]]"#, #"[["s",["é","𝄞"],"\u00e9"]]"#,
    ])
    func readsEveryFormOfAPatchLikeTheGeneralReading(text: String) throws {
        #expect(try JSONPatch(parsing: text) == JSONPatch(json: JSONValue(parsing: text)))
    }

    @Test(arguments: [#"[["s",["a"],1]] x"#, #"[["s",["a"],01]]"#, #"[["s",["a"],"\ud800"]]"#, #"[["s",["a"],1]"#, ""])
    func textThatIsNotJSONIsRefusedAsTheParserRefusesIt(text: String) throws {
        #expect(throws: JSONParseError.self) { try JSONPatch(parsing: text) }
        do {
            _ = try JSONPatch(parsing: text)
        } catch {
            #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
            do { _ = try JSONValue(parsing: text) } catch let expected { #expect("\(error)" == "\(expected)") }
        }
    }
}
