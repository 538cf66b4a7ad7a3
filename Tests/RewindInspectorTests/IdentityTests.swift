import Foundation
import RewindInspector
import RewindJSON
import RewindLog
import Testing

/// Paths with ids and `[*]` in history, show and diff, over a todo list whose second item is
/// deleted at step 2 and whose last moves to the front at step 3.
@Suite struct IdentityTests {
    let folder: TemporaryDirectory
    let inspector: LogInspector
    let log: String

    static func todos(_ items: [(Int, String, Bool)]) -> JSONValue {
        ["items": .array(items.map { ["id": .int($0.0), "title": .string($0.1), "isDone": .bool($0.2)] })]
    }

    static let states: [JSONValue] = [
        todos([(1, "milk", false), (2, "eggs", true), (3, "bread", false)]),
        todos([(1, "milk", true), (2, "eggs", true), (3, "bread", false)]),
        todos([(1, "milk", true), (3, "bread", false)]),
        todos([(3, "bread", false), (1, "milk", true)]),
        todos([(3, "bread", true), (1, "milk", true)]),
    ]

    init() throws {
        folder = try TemporaryDirectory()
        log = folder.path("todo.rewind")
        let writer = try HandmadeLog(path: log)
        try writer.session(
            "todo", initial: Self.states[0],
            steps: (1..<Self.states.count).map { HandmadeLog.Step(step: $0, state: Self.states[$0], action: ["edit": ["_0": .int($0)]]) })
        try writer.close()
        inspector = try LogInspector(path: log)
    }

    func history(_ path: JSONPath) throws -> [String] {
        HistoryRenderer().text(try inspector.history(of: path, in: try inspector.session("todo")))
    }

    @Test func anIDFollowsItsElementAcrossADeleteAndAMove() throws {
        #expect(
            try history("items[id=3].isDone") == [
                "    0  (initial)          items[id=3].isDone: false",
                "    4  didUpdateUsername  items[id=3].isDone: false → true",
            ])
        #expect(
            try history("items[id=2].title") == [
                #"    0  (initial)          items[id=2].title: "eggs""#,
                #"    2  didUpdateUsername  items[id=2].title: "eggs" → (absent)"#,
            ])
    }

    /// A list's history reads what changed inside it, elements by id.
    @Test func aListsHistoryReadsWhatChangedInsideIt() throws {
        #expect(
            try history("items") == [
                "    0  (initial)          items: [3 items]",
                "    1  didUpdateUsername  items: [id=1].isDone: false → true",
                "    2  didUpdateUsername  items: [id=2] − {3 fields}",
                "    3  didUpdateUsername  items: [id=3] ↕ [1] → [0]",
                "    4  didUpdateUsername  items: [id=3].isDone: false → true",
            ])
    }

    @Test func anIndexFollowsThePosition() throws {
        #expect(
            try history("items[1].isDone") == [
                "    0  (initial)          items[1].isDone: true",
                "    2  didUpdateUsername  items[1].isDone: true → false",
                "    3  didUpdateUsername  items[1].isDone: false → true",
            ])
    }

    @Test func aWildcardFollowsEveryElementByID() throws {
        #expect(
            try history("items[*].isDone") == [
                "    0  (initial)          items[id=1].isDone: false",
                "    0  (initial)          items[id=2].isDone: true",
                "    0  (initial)          items[id=3].isDone: false",
                "    1  didUpdateUsername  items[id=1].isDone: false → true",
                "    2  didUpdateUsername  items[id=2].isDone: true → (absent)",
                "    4  didUpdateUsername  items[id=3].isDone: false → true",
            ])
        let json = HistoryRenderer().jsonLines(try inspector.history(of: "items[*].isDone", in: try inspector.session("todo")))
        #expect(json.first == #"{"action":"didUpdateUsername","new":true,"old":false,"origin":"login","path":"items[id=1].isDone","step":1}"#)
    }

    @Test func anIDThatNamesNothingAtAnyStepIsRefused() throws {
        let error = #expect(throws: LogError.self) { try history("items[id=9].title") }
        #expect(error?.kind == .noSuchValue)
    }

    @Test func anIDSharedBySeveralElementsIsRefusedNamingTheStep() throws {
        let path = folder.path("dupes.rewind")
        let writer = try HandmadeLog(path: path)
        let duplicated: JSONValue = ["items": [["id": 1, "v": "a"], ["id": 1, "v": "b"]]]
        try writer.session("dupes", initial: ["items": [["id": 1, "v": "a"]]], steps: [HandmadeLog.Step(step: 1, state: duplicated, action: "add")])
        try writer.close()
        let inspector = try LogInspector(path: path)
        do {
            _ = try inspector.history(of: "items[id=1].v", in: try inspector.session("dupes"))
            Issue.record("an ambiguous id was followed")
        } catch {
            #expect(error.kind == .ambiguousValue)
            #expect(error.step == 1)
            #expect(
                error.message
                    == "items[id=1].v names 2 elements at step 1 of session #1 (dupes): their id is not unique; follow one by index, or all with [*]")
        }
    }

    @Test func showListsEveryPlaceAWildcardNames() throws {
        let view = try inspector.show(try inspector.session("todo"), step: 3, path: "items[*].title")
        #expect(view.lines(style: .plain).dropFirst(3) == [#"items[id=3].title: "bread""#, #"items[id=1].title: "milk""#])
        #expect(
            view.json.canonicalString
                == #"{"action":{"edit":{"_0":3}},"action_type":"didUpdateUsername","effects":null,"matches":[{"path":"items[id=3].title","value":"bread"},{"path":"items[id=1].title","value":"milk"}],"origin":"login","path":"items[*].title","session":1,"step":3}"#
        )
        let one = try inspector.show(try inspector.session("todo"), step: 3, path: "items[id=1].title")
        #expect(one.value == "milk")
    }

    @Test func theDiffOfADeleteIsOneRemovalAndOfAMoveOneMove() throws {
        let delete = try StepDiff(from: StepReference(log: log, session: "todo", step: 1), to: StepReference(log: log, session: "todo", step: 2))
        #expect(delete.lines(style: .plain).dropFirst() == [#"- items[id=2]: {"id":2,"isDone":true,"title":"eggs"}"#])
        let move = try StepDiff(from: StepReference(log: log, session: "todo", step: 2), to: StepReference(log: log, session: "todo", step: 3))
        #expect(move.lines(style: .plain).dropFirst() == ["↕ items[id=3]: moved [1] → [0]"])
    }

    @Test func aDiffNarrowedToAPlaceKeepsWhatTouchesIt() throws {
        let from = StepReference(log: log, session: "todo", step: 0), to = StepReference(log: log, session: "todo", step: 4)
        let wildcard = try StepDiff(from: from, to: to, path: "items[*].isDone").lines(style: .plain)
        let first = try StepDiff(from: from, to: to, path: "items[0]").lines(style: .plain)
        #expect(
            wildcard.dropFirst() == [
                "↕ items[id=3]: moved [2] → [0]",
                "~ items[id=3].isDone: false → true",
                #"- items[id=2]: {"id":2,"isDone":true,"title":"eggs"}"#,
                "~ items[id=1].isDone: false → true",
            ])
        // items[0] is milk before and bread after: both are named.
        #expect(first.dropFirst() == ["↕ items[id=3]: moved [2] → [0]", "~ items[id=3].isDone: false → true", "~ items[id=1].isDone: false → true"])
        let error = #expect(throws: LogError.self) { try StepDiff(from: from, to: to, path: "itmes") }
        #expect(error?.message == "itmes names nothing in either state (\(log) #1 (todo) step 0, \(log) #1 (todo) step 4)")
    }
}
