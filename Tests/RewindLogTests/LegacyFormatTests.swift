import Foundation
import GRDB
import RewindCore
import RewindJSON
import Testing

@testable import RewindLog

/// Logs of format 2 (a row of `event` per step) still read, damage in their rows is still
/// named by step, and a writer moves such a log to format 3 without touching its old
/// sessions, which `replay --update` rewrites into blocks.
@Suite struct LegacyFormatTests {
    /// A log of format 2 with one session of three ticks (a keyframe, then two patches),
    /// written row by row as a writer of that format did.
    private func formatTwoLog(in folder: TemporaryDirectory) throws -> String {
        let path = folder.path("old.rewind")
        let database = try DatabaseQueue(path: path)
        try LogSchema.migrator.migrate(database, upTo: "v2")
        try database.write { db in
            let session = SessionRow(
                id: 1, name: "ticks", flow: "test", startedAt: 1_800_000_000, endedAt: 1_800_000_003, formatVersion: 2, schemaVersion: 1,
                initialState: "0", initialDigest: JSONValue.int(0).digest.databaseValue, redactedPaths: "[]")
            try db.execute(
                sql: """
                    INSERT INTO session (id, name, flow, started_at, ended_at, format_version, schema_version, initial_state,
                                         initial_digest, redacted_paths, checksum) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [1, "ticks", "test", 1_800_000_000.0, 1_800_000_003.0, 2, 1, "0", session.initialDigest, "[]", session.checksum])
            for step in 1...3 {
                let values: [DatabaseValue] = [
                    1.databaseValue, step.databaseValue, (1_800_000_000.0 + Double(step)).databaseValue, "test".databaseValue,
                    "tick".databaseValue, #""tick""#.databaseValue, .null, .null, JSONValue.int(step).digest.databaseValue.databaseValue,
                    step == 1 ? "1".databaseValue : .null, step == 1 ? .null : #"[["s",[],\#(step)]]"#.databaseValue,
                ]
                var checksum = RowChecksum(table: "event")
                for value in values { checksum.add(value) }
                try db.execute(
                    sql: """
                        INSERT INTO event (session_id, step, time, origin, action_type, action, cause, outputs, digest, keyframe, patch,
                                           checksum) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, arguments: StatementArguments(values + [checksum.value.databaseValue]))
            }
        }
        try database.close()
        return path
    }

    @Test func aFormatTwoLogReadsAndItsDamageIsNamedByStep() throws {
        let folder = try TemporaryDirectory()
        let path = try formatTwoLog(in: folder)
        let reader = try LogReader(path: path)
        let session = try reader.session(nil)
        #expect(session.formatVersion == 2 && session.lastStep == 3 && session.eventCount == 3)
        #expect(try (0...3).map { try reader.state(of: session, at: $0) } == [0, 1, 2, 3])
        var checks: [RowCheck] = []
        try reader.scan(session) { stored in
            checks.append(stored.rowCheck)
            return stored.block == nil
        }
        #expect(checks == [.verified, .verified, .verified])

        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: #"UPDATE event SET patch = '[["s",[],7]]' WHERE step = 2"#)
        }
        let damaged = try LogReader(path: path)
        #expect(throws: LogError.damage(in: path, "step 2 of session #1 (ticks): the stored row does not match its checksum", session: 1, step: 2)) {
            try damaged.state(of: damaged.session(nil), at: 3)
        }
        #expect(try damaged.state(of: damaged.session(nil), at: 1) == 1, "the steps before it still read")
    }

    @Test func aWriterMovesTheLogToBlocksAndLeavesItsOldSessions() throws {
        let folder = try TemporaryDirectory()
        let path = try formatTwoLog(in: folder)
        let sink = try SQLiteSink(path: path)
        let recorder = Recorder<Int, Tick>(sink: sink, session: .init(name: "new", flow: "test"))
        recorder.start(initialState: 10)
        for step in 1...3 { recorder.record(.tick, state: 10 + step, step: step) }
        recorder.close()
        try sink.close()

        let reader = try LogReader(path: path)
        #expect(reader.formatVersion == 6)
        let sessions = try reader.sessions()
        #expect(sessions.map(\.formatVersion) == [2, 6])
        #expect(try reader.state(of: sessions[0], at: 3) == 3, "the old session reads from its rows")
        #expect(try reader.state(of: sessions[1], at: 3) == 13, "the new one from its block")
        let blocks = try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM event_block WHERE session_id = 2") }
        #expect(blocks == 1)

        // Rewriting the old session's states moves it into blocks.
        try LogRewriter(path: path).rewrite(session: sessions[0], initialState: 0, states: [1, 2, 3], schemaVersion: 1)
        let rewritten = try LogReader(path: path).session("ticks")
        #expect(rewritten.formatVersion == 4, "in blocks, its effects still not recorded")
        #expect(try LogReader(path: path).state(of: rewritten, at: 3) == 3)
        let rows = try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM event") }
        #expect(rows == 0)
    }
}
