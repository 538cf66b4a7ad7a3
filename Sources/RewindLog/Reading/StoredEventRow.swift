import GRDB
import GRDBSQLite
import RewindJSON

/// An event row (read with `LogReader.eventColumns`), each column read from SQLite once, for
/// the checksum, the type check and the values alike.
///
/// JSON is parsed from SQLite's own bytes, never made into a string first. Through GRDB's
/// rows, each value asked SQLite its type again, made a string and checked its UTF-8 before
/// the parser checked it once more; and the checksum read every column a second time.
///
/// Valid only until the statement steps to the next row, or for a row copied out
/// (``CopiedEventRows``), while its batch is.
struct StoredEventRow {
    /// Each of `eventColumns`, checksum last.
    let columns: [StoredColumn]

    typealias Column = LogReader.EventColumn

    /// The step, or nil where the column holds no integer.
    var step: Int? {
        if case let .integer(step) = columns[Column.step] { Int(step) } else { nil }
    }

    func int(_ column: Int) throws -> Int {
        guard case let .integer(value) = columns[column] else { throw wrongType(column, expected: "an integer") }
        return Int(value)
    }

    func optionalInt(_ column: Int) throws -> Int? {
        if case .null = columns[column] { return nil }
        return try int(column)
    }

    func double(_ column: Int) throws -> Double {
        switch columns[column] {
        case let .real(value): return value
        case let .integer(value): return Double(value)
        default: throw wrongType(column, expected: "a real")
        }
    }

    /// Text as GRDB reads it: invalid UTF-8 repaired, which only damage can hold.
    func text(_ column: Int) throws -> String {
        String(decoding: try bytes(column), as: UTF8.self)
    }

    func json(_ column: Int) throws -> JSONValue {
        try JSONValue(parsing: try bytes(column))
    }

    func optionalJSON(_ column: Int) throws -> JSONValue? {
        // Not a conditional expression: a bare `nil` there would be JSON's null literal.
        if case .null = columns[column] { return Optional.none }
        return try json(column)
    }

    /// The step's effects as a block stores them (after the checksum, see
    /// `LogReader.eventEffectsIndex`); nil for none, and in a row of the `event` table.
    func effects() throws -> JSONValue? {
        try effectsBytes().map { try JSONValue(parsing: $0) }
    }

    /// The text of ``effects()``.
    func effectsBytes() -> UnsafeRawBufferPointer? {
        let index = LogReader.eventEffectsIndex
        guard index < columns.count, case let .text(bytes) = columns[index] else { return nil }
        return bytes
    }

    /// The text of a column, nil where it is NULL.
    func optionalBytes(_ column: Int) throws -> UnsafeRawBufferPointer? {
        if case .null = columns[column] { return nil }
        return try bytes(column)
    }

    func optionalPatch(_ column: Int) throws -> JSONPatch? {
        if case .null = columns[column] { return nil }
        return try JSONPatch(parsing: try bytes(column))
    }

    private func bytes(_ column: Int) throws -> UnsafeRawBufferPointer {
        guard case let .text(bytes) = columns[column] else { throw wrongType(column, expected: "a text") }
        return bytes
    }

    private func wrongType(_ column: Int, expected: String) -> StoredValueError {
        StoredValueError(column: LogSchema.columns[1].columns[column], expected: expected, found: columns[column].typeName)
    }
}

/// One column of the row a statement stands on, as SQLite gives it back; text and blobs point
/// into SQLite's memory, valid until the statement steps.
enum StoredColumn {
    case null
    case integer(Int64)
    case real(Double)
    case text(UnsafeRawBufferPointer)
    case blob(UnsafeRawBufferPointer)

    /// Column `index` of the row `statement` stands on.
    init(_ index: Int32, of statement: OpaquePointer) {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: self = .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: self = .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            // The pointer first, then the length: SQLite's documented order.
            let start = sqlite3_column_text(statement, index)
            self = .text(UnsafeRawBufferPointer(start: start, count: Int(sqlite3_column_bytes(statement, index))))
        case SQLITE_BLOB:
            let start = sqlite3_column_blob(statement, index)
            self = .blob(UnsafeRawBufferPointer(start: start, count: Int(sqlite3_column_bytes(statement, index))))
        default: self = .null
        }
    }

    /// SQLite's number for the type.
    var type: Int32 {
        switch self {
        case .null: SQLITE_NULL
        case .integer: SQLITE_INTEGER
        case .real: SQLITE_FLOAT
        case .text: SQLITE_TEXT
        case .blob: SQLITE_BLOB
        }
    }

    /// `NULL`, `an integer`, `a real`, `a text` or `a blob`, for messages.
    var typeName: String {
        switch self {
        case .null: "NULL"
        case .integer: "an integer"
        case .real: "a real"
        case .text: "a text"
        case .blob: "a blob"
        }
    }
}
