import Testing
import RewindInspector
import RewindJSON

@Suite struct PrettyPrinterTests {
    @Test func indentsSortsAndHidesSecrets() {
        let value: JSONValue = ["username": "alice", "password": ["$redacted": 12], "photos": [["id": 1], []], "empty": [:]]
        #expect(PrettyPrinter().lines(value) == [
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
