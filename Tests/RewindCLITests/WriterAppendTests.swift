import Foundation
import GRDB
import Testing

/// A file a writer accepts (a sound SQLite file, Rewind's id, format and tables) may still hold
/// damaged rows: the writer appends its session without reading them, says that the log is
/// damaged elsewhere, and never lets its new session take over rows of another.
@Suite struct WriterAppendTests {
    @Test func recordAppendsBesideAnotherSessionsDamagedRowAndWarns() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("demo.rewind")
        try await DemoLog.record(into: path)
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE session SET name = 'edited' WHERE id = 3")
        }

        let record = try await RewindBinary.run(["record", "login", "--script", "login-happy", "--output", path])
        #expect(record.status == 0, "\(record.stderr)")
        #expect(record.stdout == "recorded session #8 (login-happy, login flow): 20 steps into \(path)\n")
        #expect(
            record.stderr
                == "rewind: warning: session #3 of \(path) is damaged (the new session is sound); run `rewind check \(path)`\n")
        #expect(try await RewindBinary.run(["show", path, "-1", "-s", "8"]).status == 0)
        #expect(try await RewindBinary.run(["show", path, "-1", "-s", "3"]).status == 65)
    }

    @Test func aNewSessionNeverTakesTheNumberOfADeletedOneWithRowsLeft() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("demo.rewind")
        try await DemoLog.record(into: path)
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        try await DatabaseQueue(path: path, configuration: configuration).write { db in
            try db.execute(sql: "DELETE FROM session WHERE id = 7")
        }
        let check = try await RewindBinary.run(["check", path])
        #expect(check.status == 1)
        #expect(check.stdout.contains("  integrity  problem  rows belong to no session (its session row is gone)\n"), "\(check.stdout)")
        #expect(check.stdout.contains("      - 1 event_block row of session #7, which has no session row\n"), "\(check.stdout)")

        // SQLite alone would number the new session 7 again and its steps would collide with
        // (or, past them, join) the rows left of the deleted one.
        let record = try await RewindBinary.run(["record", "login", "--script", "login-happy", "--output", path])
        #expect(record.status == 0, "\(record.stderr)")
        #expect(record.stdout == "recorded session #8 (login-happy, login flow): 20 steps into \(path)\n")
        let session = try await RewindBinary.run(["check", path, "-s", "8"])
        #expect(session.stdout.contains("  checksums  ok       every row matches its checksum (2 rows)\n"), "\(session.stdout)")
    }
}
