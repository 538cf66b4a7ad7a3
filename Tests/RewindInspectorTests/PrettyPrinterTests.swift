import RewindInspector
import RewindJSON
import RewindRendering
import Testing

@Suite struct PrettyPrinterTests {
    @Test func indentsSortsAndHidesSecrets() {
        let value: JSONValue = ["username": "alice", "password": ["$redacted": 12], "photos": [["id": 1], []], "empty": [:]]
        #expect(
            PrettyPrinter().lines(value) == [
                "{",
                "  empty: {}",
                "  password: <redacted 12>",
                "  photos: [",
                "    {",
                "      id: 1",
                "    }",
                "    []",
                "  ]",
                "  username: \"alice\"",
                "}",
            ])
    }
}

@Suite struct ActionGlobTests {
    @Test func matchesLikeAShell() {
        #expect(ActionGlob("didTap*").matches("didTapLogin"))
        #expect(ActionGlob("*Response").matches("loginResponse"))
        #expect(!ActionGlob("didTap*").matches("loginResponse"))
        #expect(ActionGlob("did[TU]*").matches("didUpdateUsername"))
        #expect(ActionGlob("output").matches("output"))
    }
}
