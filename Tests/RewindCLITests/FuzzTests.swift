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

    /// Runs `tools/fuzz` with `arguments` against this build's binary; its status and output.
    private func fuzz(_ arguments: [String]) throws -> (status: Int32, text: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.root.appendingPathComponent("tools/fuzz").path] + arguments + ["--binary", RewindBinary.url.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test func fiftyMutatedLogsAndExportsFailCleanly() throws {
        let (status, text) = try fuzz(["50", "--seed", "7", "--jobs", "4"])
        #expect(status == 0, "\(text)")
        #expect(text.contains("fuzz: 50 cases, 0 crashes\n"), "\(text)")
    }

    /// Every import of a mutated export that succeeds writes a log `check` passes: import
    /// verifies what `check` does (before, 36 of 60 such imports failed `check` in this run: a
    /// deleted step line, a time of 10¹³ stored saturated, a start time of 2⁴⁰).
    @Test func everyImportThatSucceedsPassesCheck() throws {
        let (status, text) = try fuzz(["150", "--imports", "--seed", "3", "--jobs", "4"])
        #expect(status == 0, "\(text)")
        #expect(text.contains(", 0 did not\n"), "\(text)")
        #expect(!text.contains("imports: 0 succeeded"), "some imports succeed, so the property is tried: \(text)")
    }

    @Test(arguments: [
        ("sed 9d", "step 9 of session 1 follows step 7: step 8 is missing and no gap line covers it"),
        ("time 1e13", #"field "time" must be a number of seconds within 10¹² of 1970"#),
        ("started_at 2^40", #"field "started_at" must be a number of seconds within 10¹² of 1970"#),
        ("ended_at 1e300", #"field "ended_at" must be a number of seconds within 10¹² of 1970, or null"#),
    ])
    func importRefusesWhatCheckWouldReject(mutation: String, message: String) throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("login.rewind")
        #expect(try RewindBinary.run(["record", "login", "--script", "login-happy", "--output", log]).status == 0)
        let export = folder.path("login.jsonl")
        #expect(try RewindBinary.run(["export", log, "--output", export]).status == 0)
        var lines = try String(contentsOfFile: export, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var line = 9
        switch mutation {
        case "sed 9d": lines.remove(at: 8)
        case "time 1e13":
            line = 3
            lines[2] = lines[2].replacingOccurrences(of: #""time":[0-9.]+"#, with: #""time":1e13"#, options: .regularExpression)
        case "started_at 2^40":
            line = 1
            lines[0] = lines[0].replacingOccurrences(of: #""started_at":[0-9.]+"#, with: #""started_at":1099511627776"#, options: .regularExpression)
        default:
            line = 1
            lines[0] = lines[0].replacingOccurrences(of: #""ended_at":[0-9.]+"#, with: #""ended_at":1e300"#, options: .regularExpression)
        }
        try lines.joined(separator: "\n").write(toFile: export, atomically: true, encoding: .utf8)
        let output = folder.path("imported.rewind")
        let result = try RewindBinary.run(["import", export, "--output", output])
        #expect(result.status == 65, "\(mutation)")
        #expect(result.stderr == "rewind: \(export):\(line): \(message)\n", "\(mutation)")
        #expect(!FileManager.default.fileExists(atPath: output), "\(mutation): nothing written")
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
            let result = try await RewindBinary.run(arguments)
            #expect(result.status == 65, "\(arguments): \(result.stderr)")
            #expect(result.stderr == "rewind: \(path): the log is damaged: \(message)\n", "\(arguments)")
        }
        // `check` lists it among the session's problems, and goes on.
        let check = try await RewindBinary.run(["check", path])
        #expect(check.status == 1, "\(check.stderr)")
        #expect(check.stdout.contains("the session cannot be read whole: \(message)"), "\(check.stdout)")
    }

    /// A session row changed by hand is damage wherever it is shown, and only there.
    @Test func aChangedSessionRowIsDamageOnlyWhereShown() async throws {
        let folder = try TemporaryDirectory()
        let path = try await damagedDemoLog("UPDATE session SET started_at = 1e300 WHERE id = 2", in: folder)
        let message = "rewind: \(path): the log is damaged: session #2 (login-invalid-then-fixed): the stored session row does not match its checksum\n"
        for arguments in [["sessions", path], ["log", path, "-s", "2"], ["show", path, "1", "-s", "2"]] {
            let result = try await RewindBinary.run(arguments)
            #expect(result.status == 65, "\(arguments): \(result.stderr)")
            #expect(result.stderr == message, "\(arguments)")
        }
        #expect(try await RewindBinary.run(["log", path, "-s", "1"]).status == 0, "session #1 is sound")
        let check = try await RewindBinary.run(["check", path])
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
