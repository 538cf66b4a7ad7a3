import RewindInspector
import RewindJSON
import Testing

@Suite struct StatePredicateTests {
    /// A login-like state with a list, a redacted secret, a member named `count` and a null.
    static let state: JSONValue = [
        "status": "failed",
        "errorMessage": "The network connection was lost.",
        "password": ["$redacted": 12],
        "photos": [["id": 1, "title": "Dunes"], ["id": 2, "title": "Fjord"], ["id": 3, "title": "Glacier"]],
        "tags": ["sea", 7, 2.5, true, nil],
        "counter": ["count": 42, "items": [1, 2]],
        "retries": 2,
        "ratio": 0.5,
        "isValid": false,
        "detail": nil,
        "user": ["name": "alice"],
    ]

    func holds(_ text: String) throws -> Bool {
        try StatePredicate(parsing: text).matches(Self.state)
    }

    @Test(arguments: [
        ("a or b and c", "(a or (b and c))"),
        ("a and b or c", "((a and b) or c)"),
        ("not a and b", "((not a) and b)"),
        ("not (a and b)", "(not (a and b))"),
        ("not not a", "(not (not a))"),
        ("a or b or c", "((a or b) or c)"),
        ("(a or b) and c", "((a or b) and c)"),
        ("not status == \"x\" or n >= 3", "((not status == \"x\") or n >= 3)"),
        ("photos[3].title contains \"é\\n\"", "photos[3].title contains \"é\\n\""),
        ("[\"odd key\"] != null", "[\"odd key\"] != null"),
    ])
    func precedenceReadsAsParenthesized(text: String, reading: String) throws {
        #expect(try StatePredicate(parsing: text).description == reading)
    }

    @Test func spacingAndSpellingDoNotMatter() throws {
        #expect(try StatePredicate(parsing: "(a==1)and(b)") == StatePredicate(parsing: "a == 1 and b"))
        #expect(try StatePredicate(parsing: ".user.name") == StatePredicate(parsing: "user.name"))
    }

    @Test(arguments: [
        ("status == \"failed\"", true), ("status == \"idle\"", false),
        ("status != \"idle\"", true), ("status != \"failed\"", false),
        ("retries < 3", true), ("retries < 2", false),
        ("retries <= 2", true), ("retries <= 1", false),
        ("retries > 1", true), ("retries > 2", false),
        ("retries >= 2", true), ("retries >= 3", false),
        ("retries == 2.0", true), ("ratio < 1", true), ("ratio == 0.5", true), ("retries > -1", true),
        ("ratio >= 5e-1", true), ("retries == 2e0", true),
        ("status < \"g\"", true), ("status > \"failed\"", false), ("status >= \"failed\"", true),
        ("isValid == false", true), ("isValid != true", true),
        ("errorMessage contains \"network\"", true), ("errorMessage contains \"Network\"", false),
        ("tags contains \"sea\"", true), ("tags contains 7", true), ("tags contains 7.0", true),
        ("tags contains 2.5", true), ("tags contains true", true), ("tags contains null", true),
        ("tags contains \"lake\"", false), ("user contains \"name\"", false), ("retries contains 2", false),
    ])
    func everyOperator(text: String, expected: Bool) throws {
        #expect(try holds(text) == expected)
    }

    @Test(arguments: [
        ("status < 3", false), ("retries > \"1\"", false), ("status >= null", false),
        ("photos > 1", false), ("user <= 0", false), ("missing < 1", false), ("missing >= \"\"", false),
    ])
    func orderingsHoldOnlyBetweenNumbersOrBetweenStrings(text: String, expected: Bool) throws {
        #expect(try holds(text) == expected)
    }

    @Test(arguments: [
        ("photos.count == 3", true), ("photos.count > 10", false),
        ("user.count == 1", true), ("status.count == 6", true),
        ("password.count == 12", true),
        ("counter.count == 42", true),
        ("counter.items.count == 2", true),
        ("retries.count == null", true), ("missing.count == null", true),
        ("photos[\"count\"] == null", true),
    ])
    func countIsTheSizeUnlessARealKeyIsNamedSo(text: String, expected: Bool) throws {
        #expect(try holds(text) == expected)
    }

    @Test(arguments: [
        ("missing == null", true), ("missing != null", false), ("detail == null", true), ("detail != null", false),
        ("missing != \"x\"", true), ("missing == \"x\"", false), ("missing contains \"x\"", false),
        ("missing", false), ("detail", false), ("isValid", false), ("not missing", true),
        ("retries", true), ("status", true), ("photos[2].title", true), ("photos[3].title", false),
        ("photos[0].title.deeper == null", true),
    ])
    func absentPathsCompareAsAbsent(text: String, expected: Bool) throws {
        #expect(try holds(text) == expected)
    }

    @Test(arguments: [
        ("status == \"failed\" and retries == 2", true), ("status == \"failed\" and retries == 3", false),
        ("status == \"idle\" or retries == 2", true), ("status == \"idle\" or retries == 3", false),
        ("not (status == \"idle\" or retries == 3)", true),
        ("status == \"idle\" and missing or retries == 2", true),
        ("status == \"idle\" and (missing or retries == 2)", false),
    ])
    func connectivesCombine(text: String, expected: Bool) throws {
        #expect(try holds(text) == expected)
    }

    @Test func stringLiteralsTakeJSONEscapes() throws {
        let state: JSONValue = ["text": "say \"hi\"\n\u{e9}"]
        #expect(try StatePredicate(parsing: #"text == "say \"hi\"\n\u00e9""#).matches(state))
        #expect(try StatePredicate(parsing: #"text contains "\"hi\"""#).matches(state))
    }

    @Test(arguments: [
        ("", 1, "expected a condition, found nothing"),
        ("status ==", 10, "expected a value after '=='"),
        ("photos.count >= ", 17, "expected a value after '>='"),
        ("status == idle", 11, "expected a value after '==', found 'idle' (strings take double quotes)"),
        ("errorMessage contains", 22, "expected a value after 'contains'"),
        ("a == (", 6, "expected a value after '==', found '('"),
        ("status = \"x\"", 8, "unexpected '='; compare with '=='"),
        ("!status", 1, "unexpected '!'; negate with 'not'"),
        ("a && b", 3, "unexpected '&'; combine with 'and'"),
        ("a || b", 3, "unexpected '|'; combine with 'or'"),
        ("a == 'x'", 6, "unexpected \"'\"; strings take double quotes"),
        ("a == \"open", 6, "unterminated string"),
        ("a == \"bad \\q\"", 11, "invalid string: invalid escape sequence"),
        ("a == 01", 6, "invalid number '01'"),
        ("a == 1.", 6, "invalid number '1.'"),
        ("a == -", 6, "invalid number '-'"),
        ("(a == 1", 8, "expected ')' to close the '(' at column 1, found the end"),
        ("a == 1 b", 8, "expected 'and', 'or' or the end, found 'b'"),
        ("a == 1)", 7, "expected 'and', 'or' or the end, found ')'"),
        ("a and", 6, "expected a path, 'not' or '(', found the end"),
        ("a and or b", 7, "expected a path, 'not' or '(', found 'or'"),
        ("3 < photos.count", 1, "expected a path before '3'; a condition reads PATH OP VALUE"),
        ("photos[x] == 1", 8, "expected an index, a quoted key, id=VALUE or * after '[' in the path photos[x]"),
        ("photos[1 == 1", 9, "expected ']' in the path photos[1 == 1"),
        ("a.  == 1", 3, "expected a key in the path a."),
        ("a == 1 # note", 8, "unexpected character '#'"),
        ("é == 1", 1, "unexpected character 'é'"),
        ("a == \"é\" and b =", 16, "unexpected '='; compare with '=='"),
    ])
    func errorsNameTheColumn(text: String, column: Int, reason: String) {
        #expect(throws: StatePredicateError(text: text, column: column, reason: reason)) {
            try StatePredicate(parsing: text)
        }
    }

    @Test func anErrorReadsInOneLine() {
        let error = StatePredicateError(text: "status ==", column: 10, reason: "expected a value after '=='")
        #expect(error.description == "invalid predicate at column 10: expected a value after '=='")
    }

    @Test func aVeryLongPredicateIsAnErrorNotACrash() throws {
        let deep = String(repeating: "(", count: 1_500) + "a" + String(repeating: ")", count: 1_500)
        #expect(throws: StatePredicateError.self) { try StatePredicate(parsing: deep) }
        let long = Array(repeating: "a", count: 900).joined(separator: " and ")
        #expect(try StatePredicate(parsing: long).matches(["a": 1]))
    }
}

/// `any(…)` and `all(…)` over the places a path with `[*]` names.
@Suite struct QuantifiedPredicateTests {
    static let state: JSONValue = [
        "items": [
            ["id": 1, "title": "milk", "isDone": true, "tags": ["dairy"]],
            ["id": 2, "title": "eggs", "isDone": false, "tags": []],
        ],
        "empty": [],
    ]

    func holds(_ text: String) throws -> Bool {
        try StatePredicate(parsing: text).matches(Self.state)
    }

    @Test func anyAndAllRangeOverTheElements() throws {
        #expect(try holds("any(items[*].isDone)"))
        #expect(try !holds("all(items[*].isDone)"))
        #expect(try holds(#"any(items[*].isDone == false and items[*].title == "eggs")"#), "both paths name the same element")
        #expect(try !holds(#"any(items[*].isDone and items[*].title == "eggs")"#))
        #expect(try holds("all(items[*].tags.count < 2)"))
        #expect(try holds(#"any(any(items[*].tags[*] == "dairy"))"#))
        #expect(try holds(#"any(items[*].tags[*] == "dairy")"#), "the last [*] ranges over every tag of every item")
        #expect(try holds("all(empty[*].x) and not any(empty[*].x)"), "over nothing, all holds and any does not")
        #expect(try holds("items[id=2].title == \"eggs\""))
    }

    @Test func quantifiersReadAsWritten() throws {
        #expect(try StatePredicate(parsing: "any(items[*].isDone) or x").description == "(any(items[*].isDone) or x)")
        #expect(try StatePredicate(parsing: "any == 1").description == "any == 1", "a key named any is still a path")
    }

    @Test(arguments: [
        ("items[*].isDone", 1, "a path with [*] goes inside any(...) or all(...), like any(items[*].isDone == true)"),
        ("any(isDone)", 1, "any(...) ranges over a path with [*], like any(items[*].done == true)"),
        ("all(items[*].a and tags[*].b)", 20, "the paths with [*] in one all(...) must share the part up to their last [*]: items[*] and tags[*].b"),
        ("any(items[*].a", 15, "expected ')' to close the '(' at column 4, found the end"),
    ])
    func misuseIsNamedAtItsColumn(text: String, column: Int, reason: String) {
        #expect(throws: StatePredicateError(text: text, column: column, reason: reason)) { try StatePredicate(parsing: text) }
    }
}
