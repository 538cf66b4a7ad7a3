import GRDB

extension Row {
    /// The value stored in `column`, as `T` (an optional `T` takes NULL); a value of another
    /// type, or a missing column, is damage that names the column.
    ///
    /// GRDB's own `decode` throws an error whose text dumps the whole row, states included:
    /// this one says only which column held what.
    func stored<T: DatabaseValueConvertible>(_ column: String, as type: T.Type = T.self) throws -> T {
        guard let value = self[column] as DatabaseValue? else {
            throw StoredValueError(column: column, expected: "\(T.self)", found: "no such column")
        }
        guard let converted = T.fromDatabaseValue(value) else {
            throw StoredValueError(column: column, expected: "\(T.self)", found: value.storageName)
        }
        return converted
    }

    /// The value in the column at `index`, as ``stored(_:as:)`` reads it.
    func stored<T: DatabaseValueConvertible>(atIndex index: Int, as type: T.Type = T.self) throws -> T {
        guard index < count, let converted = T.fromDatabaseValue(self[index] as DatabaseValue) else {
            let found = index < count ? (self[index] as DatabaseValue).storageName : "no such column"
            throw StoredValueError(column: columnNames.dropFirst(index).first ?? "#\(index)", expected: "\(T.self)", found: found)
        }
        return converted
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
struct StoredValueError: Error, CustomStringConvertible {
    let column: String
    let expected: String
    let found: String

    var description: String {
        "column \(column) holds \(found) where \(expected) belongs"
    }
}
