import Foundation
import Testing

@Suite struct FindCommandTests {
    @Test func findSearchesEverySession() throws {
        let log = try DemoLogFile()
        let result = try log.run(["find", log.path, "--where", #"status == "failed""#])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                #3 login-network-error-retry  step 19  loginResponse
                #5 photos-list-error-retry  step 2  photosResponse

                """)
    }

    @Test func firstStopsAtTheFirstMatch() throws {
        let log = try DemoLogFile()
        let all = try log.run(["find", log.path, "--where", #"route == "photos""#])
        #expect(all.stdout.split(separator: "\n").count == 26)
        let first = try log.run(["find", log.path, "--where", #"route == "photos""#, "--first"])
        #expect(first.status == 0)
        #expect(first.stdout == "#7 app-full  step 18  output\n")
    }

    @Test func findAsJSONLines() throws {
        let log = try DemoLogFile()
        let result = try log.run(["find", log.path, "--where", "photos.count > 10 and alert != null", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = DemoLogFile.jsonLines(result.stdout)
        #expect(lines.count == 1)
        let match = try #require(lines.first ?? nil)
        #expect(match["session"] as? Int == 6)
        #expect(match["name"] as? String == "photos-thumbnail-error-retry")
        #expect(match["step"] as? Int == 16)
        #expect(match["action"] as? String == "output")
    }

    @Test func aSessionNarrowsTheSearchAndStepZeroHasNoAction() throws {
        let log = try DemoLogFile()
        let result = try log.run(["find", log.path, "--where", "not errorMessage", "-s", "login-happy", "--first", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == #"{"name":"login-happy","session":1,"step":0}"# + "\n")
    }

    @Test func nothingMatchedExits1Silently() throws {
        let log = try DemoLogFile()
        let result = try log.run(["find", log.path, "--where", #"status == "exploded""#])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty && result.stderr.isEmpty)
    }

    @Test(arguments: [
        (["--where", "status =="], "rewind: invalid predicate at column 10: expected a value after '=='\n"),
        (["--where", "status = \"x\""], "rewind: invalid predicate at column 8: unexpected '='; compare with '=='\n"),
        (["--where", "(a or b"], "rewind: invalid predicate at column 8: expected ')' to close the '(' at column 1, found the end\n"),
        (["--where", "a", "-s", "99"], nil),
    ])
    func badRequestsExit64WithOneLine(arguments: [String], message: String?) throws {
        let log = try DemoLogFile()
        let result = try log.run(["find", log.path] + arguments)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        if let message { #expect(result.stderr == message) }
        #expect(result.stderr.hasPrefix("rewind: ") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test func aFileThatIsNotALogExits65() throws {
        let folder = try TemporaryDirectory()
        let notes = folder.path("notes.txt")
        try Data("my notes".utf8).write(to: URL(fileURLWithPath: notes))
        let result = try RewindBinary.run(["find", notes, "--where", "a"])
        #expect(result.status == 65)
        #expect(try Data(contentsOf: URL(fileURLWithPath: notes)) == Data("my notes".utf8))
    }

    @Test func helpHasAnExample() throws {
        let result = try RewindBinary.run(["find", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("rewind find demo.rewind --where"))
    }
}
