import GRDB
import GRDBSQLite

/// A stored step as a reader meets it, before it is decoded into an event: its columns as a
/// row of `event` would hold them, however the session stores them.
struct StoredEventVisit {
    /// Its columns (``LogReader/eventColumns``); only the session and the step for a step of a
    /// block that cannot be read.
    var row: StoredEventRow
    /// How its row, or its block's, compares with the checksum written with it.
    var rowCheck: RowCheck
    /// The first column whose type no recorder writes there, if any.
    var typeProblem: StoredValueError?
    /// The steps of the block holding it, in a session of format 3.
    var block: ClosedRange<Int>?
    /// Why its block cannot be read, when it cannot: the row then holds no values.
    var unreadable: LogError?

    /// The step, as stored.
    var step: Int { row.step ?? 0 }
}

extension LogReader {
    /// Whether `session` stores its steps in blocks (format 3) rather than rows of `event`.
    func storesBlocks(_ session: SessionSummary) -> Bool {
        formatVersion >= LogSchema.blockFormatVersion && session.formatVersion >= LogSchema.blockFormatVersion
    }

    /// Calls `body` with each stored step of `session` within `steps` (every one when nil), in
    /// step order, until it returns false.
    ///
    /// Nothing is verified here: each visit says how its row compared with its checksum, and
    /// for a block that cannot be inflated or read, each of its steps comes with the reason.
    func storedEvents(
        _ db: Database, of session: SessionSummary, steps: ClosedRange<Int>?, _ body: (StoredEventVisit) throws -> Bool
    ) throws {
        if storesBlocks(session) {
            try storedEventsInBlocks(db, of: session, steps: steps, body)
        } else {
            try storedEventsInRows(db, of: session, steps: steps, body)
        }
    }

    /// The same, throwing at the first step that does not match its checksum, does not hold the
    /// types a recorder writes, or whose block cannot be read; unless not verifying, when only
    /// the last two throw.
    ///
    /// - Parameter none: read nothing at all (an empty range, which a `ClosedRange` cannot be).
    func checkedEventRows(
        _ db: Database, of session: SessionSummary, steps: ClosedRange<Int>?, none: Bool = false, asked: Int? = nil,
        _ body: (StoredEventRow) throws -> Bool
    ) throws {
        guard !none else { return }
        try storedEvents(db, of: session, steps: steps) { visit in
            try check(visit, of: session, asked: asked)
            return try body(visit.row)
        }
    }

    /// Throws what a verifying reader refuses in `visit`. A block's damage names `asked`, the
    /// step the caller wants, when the block holds it: a state is rebuilt from the block's
    /// first step, but it is the step asked for that cannot be read.
    func check(_ visit: StoredEventVisit, of session: SessionSummary, asked: Int? = nil) throws {
        let step = asked.flatMap { asked in visit.block?.contains(asked) == true ? asked : nil } ?? visit.step
        // A changed block is named as such first, though it may also no longer inflate.
        if isVerifying, visit.rowCheck == .mismatch {
            throw mismatch(in: session, step: step, block: visit.block)
        }
        if let unreadable = visit.unreadable { throw unreadable }
        if let typeProblem = visit.typeProblem { throw damage(typeProblem, at: visit.step, of: session) }
    }

    /// Steps stored as rows of `event`: formats 1 and 2.
    private func storedEventsInRows(
        _ db: Database, of session: SessionSummary, steps: ClosedRange<Int>?, _ body: (StoredEventVisit) throws -> Bool
    ) throws {
        let range = steps.map { _ in " AND step BETWEEN ? AND ?" } ?? ""
        let statement = try db.makeStatement(sql: "SELECT \(eventColumns) FROM event WHERE session_id = ?\(range) ORDER BY step")
        let handle = statement.sqliteStatement
        sqlite3_bind_int64(handle, 1, Int64(session.number))
        if let steps {
            sqlite3_bind_int64(handle, 2, Int64(steps.lowerBound))
            sqlite3_bind_int64(handle, 3, Int64(steps.upperBound))
        }
        defer { sqlite3_reset(handle) }
        var columns: [StoredColumn] = []
        while try step(handle, db) {
            Self.readColumns(of: handle, into: &columns)
            let row = StoredEventRow(columns: columns)
            let visit = StoredEventVisit(row: row, rowCheck: Self.checkEvent(columns), typeProblem: Self.typeProblem(in: columns))
            guard try body(visit) else { return }
        }
    }

    /// Steps stored in blocks: format 3.
    private func storedEventsInBlocks(
        _ db: Database, of session: SessionSummary, steps: ClosedRange<Int>?, _ body: (StoredEventVisit) throws -> Bool
    ) throws {
        let reader = EventBlockReader(session: session.number)
        try forEachBlock(db, of: session, steps: steps) { handle in
            try reader.read(handle, steps: steps, path: path, label: session.label, body)
        }
    }

    /// Calls `body` with a statement standing on each block row of `session` that may hold a
    /// step of `steps` (every one when nil), in step order, until it returns false.
    func forEachBlock(_ db: Database, of session: SessionSummary, steps: ClosedRange<Int>?, _ body: (OpaquePointer) throws -> Bool) throws {
        // From the block that holds the range's first step: the last one starting at or before it.
        let statement = try db.makeStatement(
            sql: """
                SELECT \(Self.blockColumns) FROM event_block
                WHERE session_id = ?1 AND first_step BETWEEN
                    coalesce((SELECT max(first_step) FROM event_block WHERE session_id = ?1 AND first_step <= ?2), ?2) AND ?3
                ORDER BY first_step
                """)
        let handle = statement.sqliteStatement
        sqlite3_bind_int64(handle, 1, Int64(session.number))
        sqlite3_bind_int64(handle, 2, Int64(steps?.lowerBound ?? Int(Int64.min)))
        sqlite3_bind_int64(handle, 3, Int64(steps?.upperBound ?? Int(Int64.max)))
        defer { sqlite3_reset(handle) }
        while try step(handle, db) {
            guard try body(handle) else { return }
        }
    }

    /// Steps `handle` to its next row: true on a row, false when done; SQLite's error thrown.
    private func step(_ handle: OpaquePointer, _ db: Database) throws -> Bool {
        let result = sqlite3_step(handle)
        if result == SQLITE_ROW { return true }
        guard result == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: result), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
        return false
    }

    /// The columns every read of blocks selects, `data` last, in the order `EventBlockReader` reads them.
    static let blockColumns = "first_step, last_step, keyframe, last_time, size, checksum, data"

    /// The damage of a step whose row, or block, does not match its checksum.
    func mismatch(in session: SessionSummary, step: Int?, block: ClosedRange<Int>? = nil) -> LogError {
        let place = step.map { "step \($0) of session \(session.label)" } ?? "a step of session \(session.label)"
        guard let block else {
            return .damage(in: path, "\(place): the stored row does not match its checksum", session: session.number, step: step)
        }
        return .damage(
            in: path, "\(place): its stored block (steps \(block.lowerBound) through \(block.upperBound)) does not match its checksum",
            session: session.number, step: step)
    }
}
