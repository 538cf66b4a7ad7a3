import RewindInspector
import RewindJSON
import Testing

@Suite struct RedactionAuditTests {
    private let audit = RedactionAudit(patterns: [
        "password", "login.password", "photos[*].secret", "action.didUpdatePassword._0", "matrix[*][*]",
    ])

    @Test func placeholdersNullsAndMissingFieldsPass() {
        let state: JSONValue = [
            "password": ["$redacted": 3],
            "login": ["password": nil],
            "photos": [["secret": ["$redacted": 0]], ["title": "no secret here"]],
            "matrix": [[["$redacted": 1]], []],
        ]
        #expect(audit.clearValues(inState: state).isEmpty)
        #expect(audit.clearValues(inState: ["unrelated": "x"]).isEmpty)
        #expect(audit.clearValues(inAction: ["didUpdatePassword": ["_0": ["$redacted": 8]]]).isEmpty)
        #expect(audit.clearValues(inAction: ["didTapLogin": [:]]).isEmpty)
    }

    @Test func clearValuesAreNamedByTheirConcretePath() {
        let state: JSONValue = [
            "password": "hunter2",
            "login": ["password": ["$redacted": "hunter2"]],
            "photos": [["secret": ["$redacted": 1]], ["secret": 42]],
            "matrix": [[], [["$redacted": 1], "x"]],
        ]
        #expect(audit.clearValues(inState: state) == ["password", "login.password", "photos[1].secret", "matrix[1][1]"])
        #expect(audit.clearValues(inAction: ["didUpdatePassword": ["_0": "hunter2"]]) == ["action.didUpdatePassword._0"])
    }

    @Test func aPlaceholderIsExactlyOneNonNegativeLength() {
        #expect(RedactionAudit.isPlaceholder(["$redacted": 0]))
        #expect(!RedactionAudit.isPlaceholder(["$redacted": -1]))
        #expect(!RedactionAudit.isPlaceholder(["$redacted": 2, "value": "hi"]))
        #expect(!RedactionAudit.isPlaceholder(["$redacted": 2.5]))
        #expect(!RedactionAudit.isPlaceholder("hunter2"))
    }

    @Test func aStateThatIsAnArrayHasPatternsStartingWithAnIndex() {
        let audit = RedactionAudit(patterns: ["[*].token"])
        #expect(audit.clearValues(inState: [["token": "t"], ["token": ["$redacted": 1]]]) == ["[0].token"])
        #expect(RedactionAudit(patterns: []).isEmpty)
    }
}
