import Foundation
import GRDB
import RewindCore
import RewindLog
import Testing

/// `tools/fuzz` on 50 fixed cases against this build's binary, and the inputs that the fuzzer
/// once crashed on, kept as regressions.
@Suite struct FuzzTests {
    /// The package's root, where `tools/` is.
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func fiftyMutatedLogsAndExportsFailCleanly() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", Self.root.appendingPathComponent("tools/fuzz").path, "50", "--seed", "7", "--jobs", "4",
            "--binary", RewindBinary.url.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("fuzz: 50 cases, 0 crashes\n"), "\(text)")
    }

    /// A copy of the demo log changed by `sql`.
    private func damagedDemoLog(_ sql: String, in folder: TemporaryDirectory) async throws -> String {
        let path = folder.path("damaged.rewind")
        try await DemoLog.record(into: path)
        try await DatabaseQueue(path: path).write { db in try db.execute(sql: sql) }
        return path
    }

    @Test(arguments: [
        (
            "UPDATE event_block SET last_step = 9223372036854775807 WHERE session_id = 1",
            "session #1 has a step numbered 9223372036854775807, outside 1 through 1099511627776"
        ),
        ("UPDATE event_block SET last_time = 9e999 WHERE session_id = 1", "the last time of session #1 is inf, not a time"),
    ])
    func numbersOutOfRangeAreDamageNotATrap(sql: String, message: String) async throws {
        let folder = try TemporaryDirectory()
        let path = try await damagedDemoLog(sql, in: folder)
        for arguments in [["sessions", path], ["log", path, "-s", "1"]] {
            let result = try RewindBinary.run(arguments)
            #expect(result.status == 65, "\(arguments): \(result.stderr)")
            #expect(result.stderr == "rewind: \(path): the log is damaged: \(message)\n", "\(arguments)")
        }
        // `check` lists it among the session's problems, and goes on.
        let check = try RewindBinary.run(["check", path])
        #expect(check.status == 1, "\(check.stderr)")
        #expect(check.stdout.contains("the session cannot be read whole: \(message)"), "\(check.stdout)")
    }

    /// A session row changed by hand is damage wherever it is shown, and only there.
    @Test func aChangedSessionRowIsDamageOnlyWhereShown() async throws {
        let folder = try TemporaryDirectory()
        let path = try await damagedDemoLog("UPDATE session SET started_at = 1e300 WHERE id = 2", in: folder)
        let message = "rewind: \(path): the log is damaged: session #2 (login-invalid-then-fixed): the stored session row does not match its checksum\n"
        for arguments in [["sessions", path], ["log", path, "-s", "2"], ["show", path, "1", "-s", "2"]] {
            let result = try RewindBinary.run(arguments)
            #expect(result.status == 65, "\(arguments): \(result.stderr)")
            #expect(result.stderr == message, "\(arguments)")
        }
        #expect(try RewindBinary.run(["log", path, "-s", "1"]).status == 0, "session #1 is sound")
        let check = try RewindBinary.run(["check", path])
        #expect(check.status == 1)
        #expect(
            check.stdout.contains(
                "  checksums  problem  rows changed since they were written (their checksums do not match)\n      - the session's row does not match its checksum\n"
            ))
    }

    @Test func aSessionWithoutStepsAndAnEmptyRangeLogNothing() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("empty-session.rewind")
        let sink = try SQLiteSink(path: path)
        let recorder = Recorder<Vault, Vault.Action>(sink: sink, session: SessionDescriptor(name: "idle", flow: "vault"))
        recorder.start(initialState: Vault())
        recorder.close()
        try sink.close()
        for arguments in [["log", path], ["log", path, "--to", "0"], ["log", path, "--json"]] {
            let result = try RewindBinary.run(arguments)
            #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(arguments): \(result.stderr)")
        }
    }
}
