import GRDB
import GRDBSQLite

extension LogReader {
    /// The columns every read of events selects: the stored ones in the order their checksum
    /// takes them, then the checksum (NULL in a log of version 1, which has none).
    var eventColumns: String {
        let stored = LogSchema.columns[1].columns.joined(separator: ", ")
        return stored + (formatVersion >= 2 ? ", checksum" : ", NULL AS checksum")
    }

    /// The same for the gap table.
    var gapColumns: String {
        LogSchema.columns[2].columns.joined(separator: ", ") + (formatVersion >= 2 ? ", checksum" : ", NULL AS checksum")
    }

    /// The checksum index among ``eventColumns``.
    static var eventChecksumIndex: Int { LogSchema.columns[1].columns.count }

    /// Where a row read from a block (``BlockRecordScanner``) holds the step's effects, after
    /// its checksum: the `event` table of formats 1 and 2 has no such column.
    static var eventEffectsIndex: Int { eventChecksumIndex + 1 }

    /// The same for the event row a C statement stands on: the values are hashed in place,
    /// without making strings of them (through rows, `check` took 70 % longer).
    func verifyEvent(_ statement: OpaquePointer, of session: SessionSummary) throws {
        guard isVerifying, Self.checkEvent(statement) == .mismatch else { return }
        throw mismatch(in: session, step: Int(sqlite3_column_int64(statement, 1)))
    }

    /// How the event row a C statement stands on (read with ``eventColumns``) compares with
    /// its checksum.
    static func checkEvent(_ statement: OpaquePointer) -> RowCheck {
        // Without an array of the types: this runs for each row of `check` and replay.
        let index = Int32(eventChecksumIndex)
        guard sqlite3_column_type(statement, index) != SQLITE_NULL else { return .unchecked }
        var checksum = RowChecksum(table: "event")
        for column in 0..<index { checksum.add(StoredColumn(column, of: statement)) }
        return sqlite3_column_int64(statement, index) == checksum.value ? .verified : .mismatch
    }

    /// The same for a row whose columns are already read (``readColumns(of:into:)``).
    static func checkEvent(_ columns: [StoredColumn]) -> RowCheck {
        let index = eventChecksumIndex
        let stored: Int64
        switch columns[index] {
        case .null: return .unchecked
        case let .integer(value): stored = value
        // A checksum that is not an integer matches nothing.
        default: return .mismatch
        }
        var checksum = RowChecksum(table: "event")
        for column in 0..<index { checksum.add(columns[column]) }
        return stored == checksum.value ? .verified : .mismatch
    }

    /// Reads each of ``eventColumns`` of the row `statement` stands on into `columns`, once for
    /// the checksum, the type check and the values: each read is a call into SQLite that takes
    /// its mutex, and reading each type twice and each value twice cost a tenth of `find`.
    static func readColumns(of statement: OpaquePointer, into columns: inout [StoredColumn]) {
        let count = eventChecksumIndex + 1
        if columns.count != count { columns = Array(repeating: .null, count: count) }
        for column in 0..<count { columns[column] = StoredColumn(Int32(column), of: statement) }
    }

    /// How the first `columns` values of `row`, followed by its checksum, compare.
    static func check(_ row: Row, table: String, columns: Int) -> RowCheck {
        let stored = row[columns] as DatabaseValue
        guard !stored.isNull else { return .unchecked }
        var checksum = RowChecksum(table: table)
        for index in 0..<columns { checksum.add(row[index] as DatabaseValue) }
        return Int64.fromDatabaseValue(stored) == checksum.value ? .verified : .mismatch
    }

    /// Throws unless every gap row of `sessions` matches its checksum, in one read: a
    /// session's event count is its steps less its gaps, so a listing is only as sound as they
    /// are (`sessions`, `log` and `show` exited 0 on 84 of 84 damaged gap rows).
    func verifyGapRows(of sessions: [SessionSummary]) throws(LogError) {
        guard isVerifying, !sessions.isEmpty else { return }
        let byNumber = Dictionary(sessions.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        let only = sessions.count == 1 ? "WHERE session_id = \(sessions[0].number)" : ""
        try read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT \(gapColumns) FROM gap \(only)")
            while let row = try rows.next() {
                // A gap of no listed session is a stray row, which `check` reports.
                guard let number = (row["session_id"] as DatabaseValue).storage.int64, let session = byNumber[Int(number)] else { continue }
                try verifyGap(row, of: session)
            }
        }
    }

    /// Throws unless the gap `row` (read with ``gapColumns``) matches its checksum.
    func verifyGap(_ row: Row, of session: SessionSummary) throws {
        guard !isVerifying || Self.check(row, table: "gap", columns: LogSchema.columns[2].columns.count) != .mismatch else {
            throw LogError.damage(
                in: path, "a gap marker of session \(session.label) does not match its checksum", session: session.number
            )
        }
    }
}

extension DatabaseValue.Storage {
    var int64: Int64? {
        if case let .int64(value) = self { value } else { nil }
    }
}

extension RowChecksum {
    /// Adds a column as SQLite gave it back, framed by its stored type.
    mutating func add(_ column: StoredColumn) {
        switch column {
        case let .integer(value): add(value as Int64?)
        case let .real(value): add(value as Double?)
        case let .text(bytes): add(bytes: bytes)
        case let .blob(bytes): add(blob: bytes)
        case .null: add(nil as Int64?)
        }
    }
}

extension LogReader {
    /// The event of `row` (read with ``eventColumns``, its checksum already compared); damage
    /// names the session and the step: `step 7 of session #2 (login-happy): …`.
    func decodedEvent(from row: StoredEventRow, of session: SessionSummary, parsingActions: Bool = true) throws -> LoggedEvent {
        do {
            return try Self.event(from: row, of: session, parsingActions: parsingActions)
        } catch {
            throw damage(error, at: row.step ?? 0, of: session)
        }
    }
}

extension LogReader {
    /// The SQLite types each event column may hold, in the order of ``eventColumns``, as bits
    /// `1 << type`: checked on every row read, so a mask, not a set (hashing 11 values a row
    /// cost 2 % of `find`).
    private static let eventColumnTypes: [(types: UInt8, expected: String)] = [
        (mask(SQLITE_INTEGER), "an integer"), (mask(SQLITE_INTEGER), "an integer"), (mask(SQLITE_FLOAT, SQLITE_INTEGER), "a real"),
        (mask(SQLITE_TEXT), "a text"), (mask(SQLITE_TEXT), "a text"), (mask(SQLITE_TEXT), "a text"),
        (mask(SQLITE_INTEGER, SQLITE_NULL), "an integer or NULL"), (mask(SQLITE_TEXT, SQLITE_NULL), "a text or NULL"),
        (mask(SQLITE_INTEGER), "an integer"), (mask(SQLITE_TEXT, SQLITE_NULL), "a text or NULL"), (mask(SQLITE_TEXT, SQLITE_NULL), "a text or NULL"),
    ]

    private static func mask(_ types: Int32...) -> UInt8 {
        types.reduce(0) { $0 | 1 << UInt8($1) }
    }

    /// The first of a row's `columns` whose type no recorder writes there.
    static func typeProblem(in columns: [StoredColumn]) -> StoredValueError? {
        for index in eventColumnTypes.indices {
            let stored = columns[index]
            let column = eventColumnTypes[index]
            if column.types & (1 << UInt8(stored.type)) != 0 { continue }
            return StoredValueError(column: LogSchema.columns[1].columns[index], expected: column.expected, found: stored.typeName)
        }
        return nil
    }
}
