import Foundation
import Testing

@Suite struct HistoryCommandTests {
    @Test func historyPrintsEachChangeOfAValue() throws {
        let log = try DemoLogFile()
        let result = try log.run(["history", log.path, "status", "--session", "login-network-error-retry"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                    0  (initial)      status: "idle"
                   18  didTapLogin    status: "idle" → "inFlight"
                   19  loginResponse  status: "inFlight" → "failed"
                   20  didTapLogin    status: "failed" → "inFlight"
                   21  loginResponse  status: "inFlight" → "succeeded"

                """)
        #expect(result.stderr.isEmpty)
    }

    @Test func historyAsJSONLines() throws {
        let log = try DemoLogFile()
        let result = try log.run(["history", log.path, "photos[3].status", "-s", "6", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = DemoLogFile.jsonLines(result.stdout)
        #expect(lines.count == 4)
        #expect(lines.allSatisfy { $0 != nil }, "every line is a JSON object")
        #expect(lines.compactMap { $0?["step"] as? Int } == [2, 6, 18, 19])
        #expect(lines.compactMap { $0?["new"] as? String } == ["loading", "failed", "loading", "loaded"])
        #expect(lines.first??["old"] == nil, "the absent side is left out")
        #expect(lines.last??["origin"] as? String == "photos/thumbnail[4]")
        #expect(lines.last??["action"] as? String == "thumbnailResponse")
    }

    @Test func aSecretNeverShows() throws {
        let log = try DemoLogFile()
        for arguments in [["login", "-s", "app-full"], ["login.password", "-s", "app-full", "--json"]] {
            let result = try log.run(["history", log.path] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stdout.contains("builder-2024") && !result.stdout.contains("wonderland42"))
        }
    }

    @Test func anUnquotedIdAmongStringIdsIsToldToBeQuoted() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("todo.rewind")
        try await TodoListSessions.record(into: log)
        let unquoted = try await RewindBinary.run(["history", log, "items[id=2].title"])
        #expect(unquoted.status == 64)
        #expect(
            unquoted.stderr == """
                rewind: \(log): the path items[id=2].title holds no value at any step of session #1 (todo-ids); \
                the elements of items have string ids: quote the id, as in items[id="2"].title

                """)
        let quoted = try await RewindBinary.run(["history", log, #"items[id="b"].title"#])
        #expect(quoted.status == 0, "\(quoted.stderr)")
        // A path that is wrong in another way gets no hint.
        let misspelt = try await RewindBinary.run(["history", log, "itemz[id=2].title"])
        #expect(misspelt.stderr == "rewind: \(log): the path itemz[id=2].title holds no value at any step of session #1 (todo-ids)\n")
    }

    @Test(arguments: [
        (["photos[x]", "-s", "1"], #"invalid path "photos[x]": expected an index, a quoted key, id=VALUE or * after '['"#),
        (["status.", "-s", "1"], #"invalid path "status.": expected a key"#),
        (["nope", "-s", "login-happy"], "demo.rewind: the path nope holds no value at any step of session #1 (login-happy)"),
        (["status"], "demo.rewind: holds 7 sessions; choose one with --session NUMBER, NAME or UUID"),
        (["status", "-s", "nine"], "demo.rewind: no session nine"),
    ])
    func badRequestsExit64WithOneLine(arguments: [String], message: String) throws {
        let log = try DemoLogFile()
        let result = try log.run(["history", log.path] + arguments)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("rewind: "), "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func aMissingLogExits66() throws {
        let folder = try TemporaryDirectory()
        let result = try RewindBinary.run(["history", folder.path("none.rewind"), "status"])
        #expect(result.status == 66)
        #expect(result.stderr == "rewind: \(folder.path("none.rewind")): no such file\n")
    }

    @Test func helpHasAnExample() throws {
        let result = try RewindBinary.run(["history", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Example: rewind history"))
    }
}
