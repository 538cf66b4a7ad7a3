import GRDB
import GRDBSQLite
import RewindCore
import RewindJSON

extension LogReader {
    /// Calls `body` with each step's number, parsed action, recorded digest and behaviour (its
    /// text, valid during the call), in order, for `steps` of `session`; `body` returns whether
    /// to go on.
    ///
    /// The lightest read of a log, for verifying a replay: the columns are read through SQLite's
    /// C API, checked against the row's checksum, and the action is parsed straight from
    /// SQLite's buffer. Through GRDB's rows, with
    /// the origin and name as strings, reading took a tenth of a replay's time.
    package func actionDigests(
        of session: SessionSummary, steps: ClosedRange<Int>, _ body: (Int, JSONValue, StateDigest, RecordedBehaviourText) throws -> Bool
    ) throws(LogError) {
        try read(session: session.number) { db in
            if storesBlocks(session) {
                // Only each step's action, digest, cause, outputs and effects are read out of
                // its block: no state.
                let reader = EventBlockReader(session: session.number)
                try forEachBlock(db, of: session, steps: steps) { handle in
                    try reader.readActions(handle, steps: steps, path: path, label: session.label, check: { try check($0, of: session) }) {
                        step, record in
                        let action: JSONValue
                        do {
                            action = try JSONValue(parsing: record.action)
                        } catch {
                            throw damage(error, at: step, of: session)
                        }
                        let behaviour = RecordedBehaviourText(
                            cause: record.cause.map(Int.init), outputs: record.outputs, effects: record.effects,
                            recordsEffects: session.recordsEffects)
                        return try body(step, action, StateDigest(databaseValue: record.digest), behaviour)
                    }
                }
                return
            }
            let statement = try db.makeStatement(
                sql: """
                    SELECT \(eventColumns) FROM event WHERE session_id = ? AND step BETWEEN ? AND ? ORDER BY step
                    """)
            let handle = statement.sqliteStatement
            sqlite3_bind_int64(handle, 1, Int64(session.number))
            sqlite3_bind_int64(handle, 2, Int64(steps.lowerBound))
            sqlite3_bind_int64(handle, 3, Int64(steps.upperBound))
            defer { sqlite3_reset(handle) }
            while true {
                let result = sqlite3_step(handle)
                guard result == SQLITE_ROW else {
                    guard result == SQLITE_DONE else {
                        throw DatabaseError(resultCode: ResultCode(rawValue: result), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
                    }
                    return
                }
                // Checked first: the checksum reads every column by its stored type.
                try verifyEvent(handle, of: session)
                let step = Int(sqlite3_column_int64(handle, 1))
                let text = UnsafeBufferPointer(
                    start: sqlite3_column_text(handle, 5), count: Int(sqlite3_column_bytes(handle, 5))
                )
                let action: JSONValue
                do {
                    action = try JSONValue(parsing: text)
                } catch {
                    throw damage(error, at: step, of: session)
                }
                let cause = sqlite3_column_type(handle, 6) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(handle, 6))
                let outputs =
                    sqlite3_column_type(handle, 7) == SQLITE_NULL
                    ? nil : UnsafeRawBufferPointer(start: sqlite3_column_text(handle, 7), count: Int(sqlite3_column_bytes(handle, 7)))
                let behaviour = RecordedBehaviourText(cause: cause, outputs: outputs, effects: nil, recordsEffects: false)
                let digest = StateDigest(databaseValue: sqlite3_column_int64(handle, 8))
                guard try body(step, action, digest, behaviour) else { return }
            }
        }
    }
}
