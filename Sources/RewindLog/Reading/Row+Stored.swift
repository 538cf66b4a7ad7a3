import GRDB

extension Row {
    /// The value stored in `column`, as `T`; a value of another type, or a missing column,
    /// is damage that names the column.
    ///
    /// GRDB's own error text dumps the whole row, states included: this one says only which
    /// column held what. The value is read by GRDB's `decode`, specialized for `T`.
    @inline(__always)
    func stored<T: DatabaseValueConvertible & StatementColumnConvertible>(_ column: String, as type: T.Type = T.self) throws -> T {
        do {
            return try decode(T.self, forColumn: column)
        } catch is RowDecodingError {
            throw StoredValueError(column: column, expected: Self.name(of: T.self), found: found(in: column))
        }
    }

    /// The same for a column that may hold NULL.
    @inline(__always)
    func stored<T: DatabaseValueConvertible & StatementColumnConvertible>(_ column: String, as type: T?.Type = T?.self) throws -> T? {
        do {
            return try decode(T?.self, forColumn: column)
        } catch is RowDecodingError {
            throw StoredValueError(column: column, expected: "\(Self.name(of: T.self)) or NULL", found: found(in: column))
        }
    }

    /// What a value of `type` is called in a message: `an integer`, not `Int64`.
    private static func name(of type: Any.Type) -> String {
        switch type {
        case is any BinaryInteger.Type: "an integer"
        case is any BinaryFloatingPoint.Type: "a real"
        case is String.Type: "a text"
        default: "a \(type)"
        }
    }

    /// What `column` holds, for messages.
    private func found(in column: String) -> String {
        (self[column] as DatabaseValue?)?.storageName ?? "no such column"
    }
}

extension DatabaseValue {
    /// `NULL`, `an integer`, `a real`, `a text` or `a blob`, for messages.
    var storageName: String {
        switch storage {
        case .null: "NULL"
        case .int64: "an integer"
        case .double: "a real"
        case .string: "a text"
        case .blob: "a blob"
        }
    }
}

/// A stored value of a type no recorder writes there: which column, what was expected, and
/// what was found.
struct StoredValueError: Error, CustomStringConvertible, Sendable {
    let column: String
    let expected: String
    let found: String

    var description: String {
        "column \(column) holds \(found) where \(expected) belongs"
    }
}
