import Foundation
import GRDB
import RewindCore

extension SQLiteSink {
    /// Writes `copy` as a new session of this log, in one transaction, its rows as stored
    /// (blocks still compressed), each under the checksum its new number gives it; the
    /// number of the session that holds `copy`'s identity when the log has it already, with
    /// `inserted` false, and nothing written.
    ///
    /// - Parameter requested: the number to give the session, for a copy that keeps the numbers
    ///   its store lists (``LocalCopies``); the log's next number when nil.
    package func insert(_ copy: StoredSessionCopy, as requested: Int? = nil) throws -> (number: Int, inserted: Bool) {
        try writing { db in
            if let held = try Int.fetchOne(db, sql: "SELECT session_id FROM session_meta WHERE uuid = ?", arguments: [copy.id.uuidString]) {
                return (held, false)
            }
            let number = try insertSession(copy, as: requested, in: db)
            for block in copy.blocks { try insertBlock(block, session: number, in: db) }
            for gap in copy.gaps {
                try db.execute(
                    sql: "INSERT INTO gap (session_id, first_step, last_step, reason, checksum) VALUES (?, ?, ?, ?, ?)",
                    arguments: [
                        number, gap.steps.lowerBound, gap.steps.upperBound, gap.reason,
                        Self.gapChecksum(session: Int(number), first: gap.steps.lowerBound, last: gap.steps.upperBound, reason: gap.reason),
                    ])
            }
            return (Int(number), true)
        }
    }

    /// Writes `copy`'s session row and its identity (no block, no gap); its number.
    func insertSession(_ copy: StoredSessionCopy, as requested: Int? = nil, in db: Database) throws -> Int {
        let summary = copy.summary
        try db.execute(
            sql: """
                INSERT INTO session (id, name, flow, started_at, ended_at, format_version, schema_version,
                             initial_state, initial_digest, redacted_paths)
                VALUES (\(requested.map(String.init) ?? Self.nextSessionID), ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                summary.name, summary.flow, summary.startedAt.timeIntervalSince1970, summary.endedAt?.timeIntervalSince1970,
                summary.formatVersion, summary.schemaVersion, copy.initialState, copy.initialDigest, copy.redactedPaths,
            ]
        )
        let number = db.lastInsertedRowID
        let row = SessionRow(
            id: number, name: summary.name, flow: summary.flow, startedAt: summary.startedAt.timeIntervalSince1970,
            endedAt: summary.endedAt?.timeIntervalSince1970, formatVersion: Int64(summary.formatVersion),
            schemaVersion: Int64(summary.schemaVersion), initialState: copy.initialState, initialDigest: copy.initialDigest,
            redactedPaths: copy.redactedPaths)
        try db.execute(sql: "UPDATE session SET checksum = ? WHERE id = ?", arguments: [row.checksum, number])
        try SessionMetaRow(sessionID: number, uuid: copy.id, metadata: copy.metadata).insert(db)
        return Int(number)
    }

    /// Writes `block` as a block of session `number`, under the checksum that number gives it.
    func insertBlock(_ block: StoredSessionCopy.Block, session number: Int, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO event_block (session_id, first_step, last_step, keyframe, last_time, size, checksum, data)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                number, block.firstStep, block.lastStep, block.startsWithKeyframe ? 1 : 0, block.lastTime, block.size,
                block.checksum(session: number), Data(block.data),
            ])
    }
}
