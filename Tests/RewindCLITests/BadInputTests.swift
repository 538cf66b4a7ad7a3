import Foundation
import GRDB
import PhotoApp
import RewindCore
import RewindLog
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
        { ["history", $0, "status"] },
        { ["find", $0, "--where", "status == \"idle\""] },
        { ["replay", $0] },
        { ["export", $0] },
        { ["check", $0] },
        { ["step", $0] },
    ]

    private func expectFailure(
        _ path: String, status: Int32, message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let before = FileManager.default.contents(atPath: path)
        let siblings = Self.siblings(of: path)
        for command in Self.readCommands {
            let result = try await RewindBinary.run(command(path))
            #expect(result.status == status, "\(command(path)): \(result.stderr)", sourceLocation: sourceLocation)
            #expect(result.stderr == "rewind: \(message)\n", "\(command(path))", sourceLocation: sourceLocation)
            #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
            #expect(FileManager.default.contents(atPath: path) == before, "\(command(path)) changed the file", sourceLocation: sourceLocation)
            #expect(Self.siblings(of: path) == siblings, "\(command(path)) left files beside the log", sourceLocation: sourceLocation)
        }
    }

    /// The files in the folder of `path`, to check that reading creates no `-wal` or `-shm`.
    private static func siblings(of path: String) -> [String] {
        let folder = (path as NSString).deletingLastPathComponent
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test func aMissingFileIs66() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("missing.rewind")
        try await expectFailure(path, status: 66, message: "\(path): no such file")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func anEmptyFileIs65() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("empty.rewind")
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        try await expectFailure(path, status: 65, message: "\(path): not a Rewind log (an empty database)")
    }

    @Test func randomBytesAre65() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("random.rewind")
        var generator = SystemRandomNumberGenerator()
        try Data((0..<10_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: URL(fileURLWithPath: path))
        try await expectFailure(path, status: 65, message: "\(path): not a Rewind log (not a SQLite database)")
    }

    @Test func aForeignSQLiteDatabaseIs65() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("foreign.sqlite")
        try await DatabaseQueue(path: path).write { db in try db.execute(sql: "CREATE TABLE notes (text)") }
        try await expectFailure(path, status: 65, message: "\(path): not a Rewind log (a SQLite database of another application)")
    }

    @Test func aNewerFormatIs65() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("future.rewind")
        try await DemoLog.record(into: path)
        try await DatabaseQueue(path: path).writeWithoutTransaction { db in try db.execute(sql: "PRAGMA user_version = 7") }
        try await expectFailure(path, status: 65, message: "\(path): written by a newer Rewind (log format 7; this rewind reads up to 6)")
    }

    @Test(arguments: [50, 4_096, 20_000, 60_000])
    func aTruncatedLogIs65(length: Int) async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("cut.rewind")
        try await DemoLog.record(into: path)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try whole.prefix(length).write(to: URL(fileURLWithPath: path))
        // Past the header's first 100 bytes, its page count says how long the file should be,
        // whatever pages a command would read (cut at 60,000, `sessions` read none it lost).
        let message =
            length < 100
            ? "the log is damaged or truncated (SQLite reports a malformed database)"
            : "the log is truncated: its header says \(whole.count) bytes, the file holds \(length)"
        try await expectFailure(path, status: 65, message: "\(path): \(message)")
    }

    /// A log copied while a recorder holds it open, flushed but not checkpointed: its data is
    /// all in the `-wal`, which the copy left behind.
    @Test func aLogCopiedWithoutItsWALIs65() async throws {
        let live = try TemporaryDirectory(), copies = try TemporaryDirectory()
        let path = live.path("live.rewind"), copy = copies.path("copy.rewind")
        let sink = try SQLiteSink(path: path)
        let recorder = Recorder<LoginState, LoginAction>(sink: sink, session: SessionDescriptor(name: "live", flow: "login"))
        recorder.start(initialState: LoginState())
        var state = LoginState()
        for (step, name) in ["a", "al", "ali"].enumerated() {
            state.username = name
            recorder.record(.didUpdateUsername(name), state: state, step: step + 1)
        }
        recorder.flush()
        #expect(FileManager.default.fileExists(atPath: path + "-wal"), "copied while the WAL is live")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        recorder.close()
        try sink.close()
        try await expectFailure(
            copy, status: 65,
            message:
                "\(copy): not a whole Rewind log: it holds no session, and copy.rewind-wal, where a recorder writes its steps, is missing (copied while a recorder held it open?)"
        )
    }

    /// A page of the event table overwritten in the middle of the file: every command counts
    /// the events, so every one meets it.
    @Test func aLogWithACorruptedPageIs65() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("corrupt.rewind")
        try await DemoLog.record(into: path)
        let (pages, pageSize) = try await DatabaseQueue(path: path).read { db in
            (
                try Int.fetchAll(db, sql: "SELECT pageno FROM dbstat WHERE name = 'event' AND pagetype = 'leaf'"),
                try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4_096
            )
        }
        let middle = try #require(pages.sorted()[safe: pages.count / 2])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let start = (middle - 1) * pageSize
        bytes.replaceSubrange(start..<start + 64, with: Data(repeating: 0xA5, count: 64))
        try bytes.write(to: URL(fileURLWithPath: path))
        try await expectFailure(path, status: 65, message: "\(path): the log is damaged or truncated (SQLite reports a malformed database)")
    }

    @Test func unknownSessionsStepsAndPathsAre64() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("demo.rewind")
        try await DemoLog.record(into: path)
        let before = FileManager.default.contents(atPath: path)
        let cases: [([String], String)] = [
            (
                ["log", path, "--session", "nope"],
                "\(path): no session nope (the log holds #1 (login-happy), #2 (login-invalid-then-fixed), #3 (login-network-error-retry), #4 (photos-happy-browse), #5 (photos-list-error-retry), #6 (photos-thumbnail-error-retry), #7 (app-full))"
            ),
            (["show", path, "99", "-s", "1"], "\(path): step 99 is out of range: session #1 (login-happy) has steps 0 through 20"),
            (["log", path, "-s", "1", "--from", "50"], "\(path): step 50 is out of range: session #1 (login-happy) has steps 0 through 20"),
            (["show", path, "3", "-s", "1", "--path", "photos[x]"], #"invalid path "photos[x]": expected an index, a quoted key, id=VALUE or * after '['"#),
            (["show", path, "3", "-s", "1", "--path", "nothing.here"], "\(path): no value at nothing.here in step 3 of session #1 (login-happy)"),
            (["diff", "\(path):9", "\(path):1:2"], "\(path): holds 7 sessions; choose one with --session NUMBER, NAME or UUID"),
            (["show", path, "3"], "\(path): holds 7 sessions; choose one with --session NUMBER, NAME or UUID"),
        ]
        for (arguments, message) in cases {
            let result = try await RewindBinary.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr == "rewind: \(message)\n", "\(arguments)")
        }
        #expect(FileManager.default.contents(atPath: path) == before)
    }
}

extension Array {
    subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
