import Foundation
import GRDBSQLite
import PhotoApp
import RewindJSON

extension BenchmarkSuite {
    /// The physical reference: the bytes our log stores per login step (action and patch),
    /// inserted as plain rows with the C API in transactions of 4,096 rows, WAL, synchronous
    /// NORMAL, as the recorder does.
    func measureRawSQLite(into result: inout BenchmarkResult) throws {
        let encoder = JSONValueEncoder()
        var previous = try encoder.encode(LoginState())
        var rows: [[UInt8]] = []
        var state = LoginState()
        for action in Self.loginActions {
            if case let .didUpdateUsername(name) = action { state.username = name }
            let current = try encoder.encode(state)
            rows.append(try encoder.encode(action).canonicalBytes + JSONPatch.between(previous, current).json.canonicalBytes)
            previous = current
        }
        var rates: [Double] = []
        for repetition in 0..<repetitions {
            rates.append(try insertRaw(rows, count: smallSteps, file: path("raw\(repetition).sqlite")))
        }
        result.add("raw_sqlite_rows_per_s", median(rates), "raw SQLite batched inserts, same bytes (rows/s)")
    }

    private func insertRaw(_ rows: [[UInt8]], count: Int, file: String) throws -> Double {
        var db: OpaquePointer?
        guard sqlite3_open(file, &db) == SQLITE_OK, let db else { throw BenchmarkError("cannot open \(file)") }
        defer { sqlite3_close(db) }
        func exec(_ sql: String) throws {
            guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw BenchmarkError(String(cString: sqlite3_errmsg(db))) }
        }
        try exec(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; CREATE TABLE event (session_id INTEGER, step INTEGER, data BLOB, PRIMARY KEY (session_id, step)) WITHOUT ROWID"
        )
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "INSERT INTO event VALUES (1, ?, ?)", -1, &statement, nil) == SQLITE_OK, let statement else {
            throw BenchmarkError(String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(statement) }
        let seconds = try Stopwatch.seconds {
            var step = 0
            while step < count {
                try exec("BEGIN")
                for _ in 0..<min(4_096, count - step) {
                    step += 1
                    let row = rows[step & 63]
                    sqlite3_bind_int64(statement, 1, Int64(step))
                    _ = row.withUnsafeBytes { sqlite3_bind_blob(statement, 2, $0.baseAddress, Int32($0.count), nil) }
                    guard sqlite3_step(statement) == SQLITE_DONE else { throw BenchmarkError(String(cString: sqlite3_errmsg(db))) }
                    sqlite3_reset(statement)
                }
                try exec("COMMIT")
            }
        }
        return Double(count) / seconds
    }
}

/// A benchmark that could not run.
public struct BenchmarkError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
