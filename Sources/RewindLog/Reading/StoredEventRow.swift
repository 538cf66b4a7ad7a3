import GRDB
import GRDBSQLite
import RewindJSON

/// The event row a statement stands on (read with `LogReader.eventColumns`), its values read
/// straight from SQLite.
///
/// Each column's type is read once per row, for the checksum, the type check and the values
/// alike; JSON is parsed from SQLite's own bytes, never made into a string first. Through
/// GRDB's rows, each value asked SQLite its type again, made a string and checked its UTF-8
/// before the parser checked it once more: a sixth of `find`.
///
/// Valid only until the statement steps to the next row.
struct StoredEventRow {
    /// The row, for reading columns by name where speed does not matter.
    let row: Row
    let statement: OpaquePointer
    /// The SQLite type of each of `eventColumns`, checksum last.
    let types: [Int32]

    typealias Column = LogReader.EventColumn

    /// The step, or nil where the column holds no integer.
    var step: Int? {
        types[Column.step] == SQLITE_INTEGER ? Int(sqlite3_column_int64(statement, Int32(Column.step))) : nil
    }

    func int(_ column: Int) throws -> Int {
        guard types[column] == SQLITE_INTEGER else { throw wrongType(column, expected: "an integer") }
        return Int(sqlite3_column_int64(statement, Int32(column)))
    }

    func optionalInt(_ column: Int) throws -> Int? {
        types[column] == SQLITE_NULL ? nil : try int(column)
    }

    func double(_ column: Int) throws -> Double {
        guard types[column] == SQLITE_FLOAT || types[column] == SQLITE_INTEGER else { throw wrongType(column, expected: "a real") }
        return sqlite3_column_double(statement, Int32(column))
    }

    /// Text as GRDB reads it: invalid UTF-8 repaired, which only damage can hold.
    func text(_ column: Int) throws -> String {
        try withText(column) { String(decoding: $0, as: UTF8.self) }
    }

    func json(_ column: Int) throws -> JSONValue {
        try withText(column) { try JSONValue(parsing: $0) }
    }

    func optionalJSON(_ column: Int) throws -> JSONValue? {
        // Not a conditional expression: a bare `nil` there would be JSON's null literal.
        guard types[column] != SQLITE_NULL else { return Optional.none }
        return try json(column)
    }

    func optionalPatch(_ column: Int) throws -> JSONPatch? {
        types[column] == SQLITE_NULL ? nil : try withText(column) { try JSONPatch(parsing: $0) }
    }

    private func withText<T>(_ column: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) throws -> T {
        guard types[column] == SQLITE_TEXT else { throw wrongType(column, expected: "a text") }
        let count = Int(sqlite3_column_bytes(statement, Int32(column)))
        guard let start = sqlite3_column_text(statement, Int32(column)) else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeBufferPointer(start: start, count: count))
    }

    private func wrongType(_ column: Int, expected: String) -> StoredValueError {
        let found = [SQLITE_INTEGER: "an integer", SQLITE_FLOAT: "a real", SQLITE_TEXT: "a text", SQLITE_BLOB: "a blob"][types[column]] ?? "NULL"
        return StoredValueError(column: LogSchema.columns[1].columns[column], expected: expected, found: found)
    }
}
