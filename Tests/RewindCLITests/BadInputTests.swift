import Foundation
import GRDB
import Testing

/// Every read command against files that are not readable logs: one line, its exit code, no
/// crash, and the file byte-identical afterwards.
@MainActor
@Suite struct BadInputTests {
    /// The read commands, given a log path.
    static let readCommands: [(String) -> [String]] = [
        { ["sessions", $0] },
        { ["log", $0] },
        { ["show", $0, "0"] },
        { ["diff", $0, "0", "1"] },
    ]

    private func expectFailure(
        _ path: String, status: Int32, message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = FileManager.default.contents(atPath: path)
        for command in Self.readCommands {
            let result = try RewindBinary.run(command(path))
            #expect(result.status == status, "\(command(path)): \(result.stderr)", sourceLocation: sourceLocation)
            #expect(result.stderr == "rewind: \(message)\n", "\(command(path))", sourceLocation: sourceLocation)
            #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
            #expect(FileManager.default.contents(atPath: path) == before, "\(command(path)) changed the file", sourceLocation: sourceLocation)
        }
    }

    @Test func aMissingFileIs66() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("missing.rewind")
        try expectFailure(path, status: 66, message: "\(path): no such file")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func anEmptyFileIs65() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("empty.rewind")
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        try expectFailure(path, status: 65, message: "\(path): not a Rewind log (an empty database)")
    }

    @Test func randomBytesAre65() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("random.rewind")
        var generator = SystemRandomNumberGenerator()
        try Data((0..<10_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: URL(fileURLWithPath: path))
        try expectFailure(path, status: 65, message: "\(path): not a Rewind log (not a SQLite database)")
    }

    @Test func aForeignSQLiteDatabaseIs65() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("foreign.sqlite")
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "CREATE TABLE notes (text)") }
        try expectFailure(path, status: 65, message: "\(path): not a Rewind log (a SQLite database of another application)")
    }

    @Test func aNewerFormatIs65() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("future.rewind")
        try await DemoLog.record(into: path)
        try await DatabaseQueue(path: path).writeWithoutTransaction { db in try db.execute(sql: "PRAGMA user_version = 7") }
        try expectFailure(path, status: 65, message: "\(path): written by a newer Rewind (log format 7; this rewind reads up to 1)")
    }

    @Test(arguments: [50, 4_096, 20_000, 60_000])
    func aTruncatedLogIs65(length: Int) async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("cut.rewind")
        try await DemoLog.record(into: path)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try whole.prefix(length).write(to: URL(fileURLWithPath: path))
        try expectFailure(path, status: 65, message: "\(path): the log is damaged or truncated (SQLite reports a malformed database)")
    }

    @Test func unknownSessionsStepsAndPathsAre64() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("demo.rewind")
        try await DemoLog.record(into: path)
        let before = FileManager.default.contents(atPath: path)
        let cases: [([String], String)] = [
            (["log", path, "--session", "nope"], "\(path): no session nope (the log holds #1 (login-happy), #2 (login-invalid-then-fixed), #3 (login-network-error-retry), #4 (photos-happy-browse), #5 (photos-list-error-retry), #6 (photos-thumbnail-error-retry), #7 (app-full))"),
            (["show", path, "99", "-s", "1"], "\(path): step 99 is out of range: session #1 (login-happy) has steps 0 through 20"),
            (["log", path, "-s", "1", "--from", "50"], "\(path): step 50 is out of range: session #1 (login-happy) has steps 0 through 20"),
            (["show", path, "3", "-s", "1", "--path", "photos[x]"], #"invalid path "photos[x]": expected an index or a quoted key after '['"#),
            (["show", path, "3", "-s", "1", "--path", "nothing.here"], "\(path): no value at nothing.here in step 3 of session #1 (login-happy)"),
            (["diff", "\(path):9", "\(path):1:2"], "\(path): holds 7 sessions; choose one with --session NUMBER or NAME"),
            (["show", path, "3"], "\(path): holds 7 sessions; choose one with --session NUMBER or NAME"),
        ]
        for (arguments, message) in cases {
            let result = try RewindBinary.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr == "rewind: \(message)\n", "\(arguments)")
        }
        #expect(FileManager.default.contents(atPath: path) == before)
    }
}
