import Foundation
import Testing

/// `rewind export` and `rewind import` as a user runs them.
@Suite struct ExportImportCommandTests {
    /// A folder holding `demo.rewind`, recorded by `rewind demo`.
    /// Records `demo.rewind` into `folder` with `rewind demo`.
    private func demo(in folder: TemporaryDirectory) throws -> String {
        let log = folder.path("demo.rewind")
        let result = try RewindBinary.run(["demo", "--output", log])
        #expect(result.status == 0, "\(result.stderr)")
        return log
    }

    private func bytes(_ path: String) -> Data? {
        FileManager.default.contents(atPath: path)
    }

    @Test func exportToStandardOutputAndToAFileGiveTheSameLinesAndLeaveTheLogAlone() throws {
        let folder = try TemporaryDirectory()
        let log = try demo(in: folder)
        let before = bytes(log)
        let printed = try RewindBinary.run(["export", log])
        #expect(printed.status == 0, "\(printed.stderr)")
        let file = folder.path("demo.jsonl")
        let written = try RewindBinary.run(["export", log, "--output", file])
        #expect(written.status == 0 && written.stdout.isEmpty && written.stderr.isEmpty)
        #expect(bytes(file) == Data(printed.stdout.utf8))
        #expect(printed.stdout.split(separator: "\n").count == 7 + 178)
        #expect(!printed.stdout.contains("wonderland42"))
        #expect(bytes(log) == before, "export never modifies its log")

        let one = try RewindBinary.run(["export", log, "--session", "login-happy"])
        #expect(one.stdout.split(separator: "\n").count == 21)
        #expect(one.stdout.hasPrefix(#"{"ended_at":"#))
    }

    @Test func exportRefusesToOverwriteItsOwnLog() throws {
        let folder = try TemporaryDirectory()
        let log = try demo(in: folder)
        let before = bytes(log)
        for output in [log, "./demo.rewind"] {
            let result = try RewindBinary.run(["export", "demo.rewind", "--output", output], in: folder.url)
            #expect(result.status == 64)
            #expect(result.stderr == "rewind: \(output): is the log being exported; choose another --output\n")
        }
        #expect(bytes(log) == before)
    }

    @Test(arguments: [
        (["export", "none.rewind"], 66, "rewind: none.rewind: no such file\n"),
        (["export", "notes.txt"], 65, "rewind: notes.txt: not a Rewind log (not a SQLite database)\n"),
        (
            ["export", "demo.rewind", "--session", "nope"], 64,
            "rewind: demo.rewind: no session nope (the log holds #1 (login-happy), #2 (login-invalid-then-fixed), #3 (login-network-error-retry), #4 (photos-happy-browse), #5 (photos-list-error-retry), #6 (photos-thumbnail-error-retry), #7 (app-full))\n"
        ),
        (["import", "none.jsonl", "--output", "x.rewind"], 66, "rewind: none.jsonl: no such file\n"),
        (
            ["import", "/dev/stdin", "--output", "x.rewind"], 64,
            "rewind: /dev/stdin: is not a regular file; import reads it twice (to verify, then to write), so save the export to a file first\n"
        ),
        (["import", "notes.txt", "--output", "x.rewind"], 65, "rewind: notes.txt:1: invalid JSON at byte 0: unexpected character 'm', expected a value\n"),
    ])
    func badInputsExitWithTheirCodeAndOneLine(arguments: [String], status: Int32, message: String) throws {
        let folder = try TemporaryDirectory()
        _ = try demo(in: folder)
        try Data("my notes".utf8).write(to: folder.url.appendingPathComponent("notes.txt"))
        let result = try RewindBinary.run(arguments, in: folder.url)
        #expect(result.status == status)
        #expect(result.stderr == message)
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.rewind")))
    }

    @Test func exportImportExportIsByteIdenticalAndKeepsSessionNumbers() throws {
        let folder = try TemporaryDirectory()
        let log = try demo(in: folder)
        let first = folder.path("first.jsonl"), second = folder.path("second.jsonl"), copy = folder.path("copy.rewind")
        #expect(try RewindBinary.run(["export", log, "-o", first]).status == 0)
        let before = bytes(first)
        let imported = try RewindBinary.run(["import", first, "--output", copy])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.split(separator: "\n").first == "imported session #1 (login-happy, login flow): 20 steps into \(copy)")
        #expect(imported.stdout.split(separator: "\n").last == "imported session #7 (app-full, app flow): 44 steps into \(copy)")
        #expect(bytes(first) == before, "import never modifies its input")
        #expect(try RewindBinary.run(["export", copy, "-o", second]).status == 0)
        #expect(bytes(second) == bytes(first))
        #expect(try RewindBinary.run(["check", copy]).status == 0)
    }

    @Test func importNamesTheBrokenLineAndWritesNothing() throws {
        let folder = try TemporaryDirectory()
        let log = try demo(in: folder)
        var lines = try RewindBinary.run(["export", log]).stdout.split(separator: "\n").map(String.init)
        lines[11] = lines[11].replacingOccurrences(of: #""digest":"[0-9a-f]{16}""#, with: #""digest":"00000000000000ff""#, options: .regularExpression)
        let file = folder.path("broken.jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
        let result = try RewindBinary.run(["import", "broken.jsonl", "--output", "out.rewind"], in: folder.url)
        #expect(result.status == 65)
        #expect(
            result.stderr.hasPrefix("rewind: broken.jsonl:12: step 11 of session 1: the digest 00000000000000ff does not match its state, whose digest is "),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out.rewind")))
    }

    @Test func importRefusesAnOutputThatIsNotALogAndAppendsToOneThatIs() throws {
        let folder = try TemporaryDirectory()
        let log = try demo(in: folder)
        let file = folder.path("demo.jsonl")
        #expect(try RewindBinary.run(["export", log, "--session", "2", "-o", file]).status == 0)
        let notes = folder.path("notes.txt")
        try Data("my notes".utf8).write(to: URL(fileURLWithPath: notes))
        let refused = try RewindBinary.run(["import", file, "--output", notes])
        #expect(refused.status == 64)
        #expect(refused.stderr == "rewind: \(notes) exists and is not a Rewind log; choose another --output\n")
        #expect(bytes(notes) == Data("my notes".utf8))

        let other = folder.path("other.jsonl")
        #expect(try RewindBinary.run(["export", log, "--session", "3", "-o", other]).status == 0)
        let copy = folder.path("copy.rewind")
        #expect(try RewindBinary.run(["import", other, "--output", copy]).status == 0)
        let appended = try RewindBinary.run(["import", file, "--output", copy])
        #expect(appended.status == 0, "\(appended.stderr)")
        #expect(appended.stdout == "imported session #2 (login-invalid-then-fixed, login flow): 28 steps into \(copy)\n")
    }

    /// Each session's `uuid` and `metadata` as `sessions --json` lists them, in order.
    private func identities(of log: String) throws -> [String] {
        let listed = try JSONSerialization.jsonObject(with: Data(try RewindBinary.run(["sessions", log, "--json"]).stdout.utf8)) as? [[String: Any]] ?? []
        return listed.map { "\($0["uuid"] ?? "none") \(($0["metadata"] as? [String: Any])?["app"] ?? "none")" }
    }

    /// A session keeps its identity through export and import, so importing it where it is
    /// already is skipped, and says so.
    @Test func importingASessionTheLogHoldsSkipsIt() throws {
        let folder = try TemporaryDirectory()
        let log = try demo(in: folder)
        let file = folder.path("demo.jsonl")
        #expect(try RewindBinary.run(["export", log, "--session", "2", "-o", file]).status == 0)
        let again = try RewindBinary.run(["import", file, "--output", log])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == "skipped login-invalid-then-fixed (login flow, line 1): \(log) holds it already as #2\n")
        #expect(try identities(of: log).count == 7, "still 7 sessions")

        let copy = folder.path("copy.rewind")
        #expect(try RewindBinary.run(["import", file, "--output", copy]).status == 0)
        #expect(try identities(of: copy) == [identities(of: log)[1]], "the copy keeps the session's identity and metadata")
    }

    @Test(arguments: ["export", "import"])
    func helpShowsAnExample(command: String) throws {
        let result = try RewindBinary.run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Example"))
    }
}
