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

    /// Throws unless the event `row` (read with ``eventColumns``) matches its checksum; a row
    /// written before checksums passes as unchecked.
    func verifyEvent(_ row: Row, of session: SessionSummary) throws {
        let stored = row[Self.eventChecksumIndex] as DatabaseValue
        guard isVerifying, !stored.isNull else { return }
        var checksum = RowChecksum(table: "event")
        for index in 0..<Self.eventChecksumIndex { checksum.add(row[index] as DatabaseValue) }
        guard Int64.fromDatabaseValue(stored) == checksum.value else {
            let step = (row[1] as DatabaseValue).storage.int64.map(Int.init)
            throw mismatch(in: session, step: step)
        }
    }

    /// The same for the event row a C statement stands on.
    func verifyEvent(_ statement: OpaquePointer, of session: SessionSummary) throws {
        let index = Int32(Self.eventChecksumIndex)
        guard isVerifying, sqlite3_column_type(statement, index) != SQLITE_NULL else { return }
        var checksum = RowChecksum(table: "event")
        for column in 0..<index { checksum.add(column: column, of: statement) }
        guard sqlite3_column_int64(statement, index) == checksum.value else {
            throw mismatch(in: session, step: Int(sqlite3_column_int64(statement, 1)))
        }
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

    private func mismatch(in session: SessionSummary, step: Int?) -> LogError {
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
    /// Adds column `column` of the row `statement` stands on, framed by its stored type.
    mutating func add(column: Int32, of statement: OpaquePointer) {
        switch sqlite3_column_type(statement, column) {
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
    /// The event of `row` (read with ``eventColumns``), once it matches its checksum; damage
    /// names the session and the step: `step 7 of session #2 (login-happy): …`.
    func checkedEvent(from row: Row, of session: SessionSummary) throws -> LoggedEvent {
        try verifyEvent(row, of: session)
        do {
            return try Self.event(from: row)
        } catch {
            throw damage(error, at: (row[1] as DatabaseValue).storage.int64.map(Int.init) ?? 0, of: session)
        }
    }
}
