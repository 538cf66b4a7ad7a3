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
        for column in 0..<index { checksum.add(column: column, of: statement, type: sqlite3_column_type(statement, column)) }
        return sqlite3_column_int64(statement, index) == checksum.value ? .verified : .mismatch
    }

    /// The same, with the SQLite types of the row's columns already read
    /// (``readColumnTypes(of:into:)``).
    static func checkEvent(_ statement: OpaquePointer, types: [Int32]) -> RowCheck {
        let index = eventChecksumIndex
        guard types[index] != SQLITE_NULL else { return .unchecked }
        var checksum = RowChecksum(table: "event")
        for column in 0..<index { checksum.add(column: Int32(column), of: statement, type: types[column]) }
        return sqlite3_column_int64(statement, Int32(index)) == checksum.value ? .verified : .mismatch
    }

    /// Reads the SQLite type of each of ``eventColumns`` of the row `statement` stands on into
    /// `types`, once for both the checksum and the type check: each read is a call into SQLite
    /// that takes its mutex, and reading them twice cost 6 % of `find`.
    static func readColumnTypes(of statement: OpaquePointer, into types: inout [Int32]) {
        let count = eventChecksumIndex + 1
        if types.count != count { types = Array(repeating: 0, count: count) }
        for column in 0..<count { types[column] = sqlite3_column_type(statement, Int32(column)) }
    }

    /// How the first `columns` values of `row`, followed by its checksum, compare.
    static func check(_ row: Row, table: String, columns: Int) -> RowCheck {
        let stored = row[columns] as DatabaseValue
        guard !stored.isNull else { return .unchecked }
        var checksum = RowChecksum(table: table)
        for index in 0..<columns { checksum.add(row[index] as DatabaseValue) }
        return Int64.fromDatabaseValue(stored) == checksum.value ? .verified : .mismatch
    }

    /// Throws unless the gap `row` (read with ``gapColumns``) matches its checksum.
    func verifyGap(_ row: Row, of session: SessionSummary) throws {
        guard !isVerifying || Self.check(row, table: "gap", columns: LogSchema.columns[2].columns.count) != .mismatch else {
            throw LogError.damage(
                in: path, "a gap marker of session \(session.label) does not match its checksum", session: session.number
            )
        }
    }

    func mismatch(in session: SessionSummary, step: Int?) -> LogError {
        let place = step.map { "step \($0) of session \(session.label)" } ?? "a step of session \(session.label)"
        return .damage(in: path, "\(place): the stored row does not match its checksum", session: session.number, step: step)
    }
}

extension DatabaseValue.Storage {
    var int64: Int64? {
        if case let .int64(value) = self { value } else { nil }
    }
}

extension RowChecksum {
    /// Adds column `column` of the row `statement` stands on, framed by its stored `type`.
    mutating func add(column: Int32, of statement: OpaquePointer, type: Int32) {
        switch type {
        case SQLITE_INTEGER: add(sqlite3_column_int64(statement, column) as Int64?)
        case SQLITE_FLOAT: add(sqlite3_column_double(statement, column) as Double?)
        case SQLITE_TEXT:
            let text = sqlite3_column_text(statement, column)
            add(bytes: UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column))))
        case SQLITE_BLOB:
            let blob = sqlite3_column_blob(statement, column)
            add(blob: UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_column_bytes(statement, column))))
        default: add(nil as Int64?)
        }
    }
}

extension LogReader {
    /// The event of `row` (read with ``eventColumns``, its checksum already compared); damage
    /// names the session and the step: `step 7 of session #2 (login-happy): …`.
    func decodedEvent(from row: StoredEventRow, of session: SessionSummary, parsingActions: Bool = true) throws -> LoggedEvent {
        do {
            return try Self.event(from: row, parsingActions: parsingActions)
        } catch {
            throw damage(error, at: row.step ?? 0, of: session)
        }
    }
}

extension LogReader {
    /// Calls `body` with each event row `sql` selects (with ``eventColumns``) and how it
    /// compares with its checksum, hashed in place through the statement; `body` returns
    /// whether to go on.
    ///
    /// `body` gets a row whose columns hold the types a recorder writes, or a
    /// ``StoredValueError`` for the first that does not: GRDB's decoding turns a blob or a
    /// number into text without a word.
    func eventRows(
        _ db: Database, sql: String, arguments: StatementArguments, _ body: (StoredEventRow, RowCheck, StoredValueError?) throws -> Bool
    ) throws {
        let statement = try db.makeStatement(sql: sql)
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        var types: [Int32] = []
        while let row = try rows.next() {
            let handle = statement.sqliteStatement
            Self.readColumnTypes(of: handle, into: &types)
            let stored = StoredEventRow(row: row, statement: handle, types: types)
            guard try body(stored, Self.checkEvent(handle, types: types), Self.typeProblem(in: types)) else { return }
        }
    }

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

    /// The first column of a row, given its columns' `types`, whose type no recorder writes there.
    static func typeProblem(in types: [Int32]) -> StoredValueError? {
        for index in eventColumnTypes.indices {
            let type = types[index]
            let column = eventColumnTypes[index]
            // SQLite's types are 1 through 5.
            if (1...5).contains(type) && column.types & (1 << UInt8(type)) != 0 { continue }
            let found = [SQLITE_INTEGER: "an integer", SQLITE_FLOAT: "a real", SQLITE_TEXT: "a text", SQLITE_BLOB: "a blob"][type] ?? "NULL"
            return StoredValueError(column: LogSchema.columns[1].columns[index], expected: column.expected, found: found)
        }
        return nil
    }

    /// The same, throwing at the first row that does not match, unless not verifying.
    func checkedEventRows(
        _ db: Database, of session: SessionSummary, sql: String, arguments: StatementArguments, _ body: (StoredEventRow) throws -> Bool
    ) throws {
        try eventRows(db, sql: sql, arguments: arguments) { row, check, typeProblem in
            let step = row.step
            if isVerifying, check == .mismatch {
                throw mismatch(in: session, step: step)
            }
            if let typeProblem { throw damage(typeProblem, at: step ?? 0, of: session) }
            return try body(row)
        }
    }
}
