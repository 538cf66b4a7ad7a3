import Foundation
import GRDB
import RewindInspector
import RewindLog
import Testing

/// Every single-byte change to a stored value is found: each byte of each column of sample
/// rows (events of every storage form, a session row, a gap marker) is flipped in turn, and
/// `check` must fail naming the step, the session or the gap, for every flip.
@Suite struct ByteFlipTests {
    /// One stored value and how to put a changed one back.
    struct Cell {
        var table: String
        var column: String
        var key: String
        var keys: [Int64]
        var value: DatabaseValue
    }

    /// The stored values of the rows `sql` selects (with their rowid as `key_rowid` or their
    /// primary key as `session_id` and `step`).
    static func cells(_ db: Database, table: String, where condition: String) throws -> [Cell] {
        let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String }
        let key = table == "event" ? "session_id = ? AND step = ?" : "rowid = ?"
        let keyColumns = table == "event" ? "session_id, step" : "rowid"
        var cells: [Cell] = []
        for row in try Row.fetchAll(db, sql: "SELECT \(keyColumns), * FROM \(table) WHERE \(condition)") {
            let keys: [Int64] = table == "event" ? [row[0], row[1]] : [row[0]]
            for column in columns {
                cells.append(Cell(table: table, column: column, key: key, keys: keys, value: row[column]))
            }
        }
        return cells
    }

    /// Every value `cell` can hold with one of its bytes flipped (all bits of that byte).
    static func flips(of cell: Cell) -> [(sql: String, argument: DatabaseValueConvertible)] {
        let set = "UPDATE \(cell.table) SET \(cell.column) = "
        switch cell.value.storage {
        case .null, .blob:
            return []
        case let .int64(number):
            return (0..<8).map { byte in (set + "?", number ^ (0xFF << (8 * Int64(byte)))) }
        case let .double(number):
            return (0..<8).map { byte in (set + "?", Double(bitPattern: number.bitPattern ^ (0xFF << (8 * UInt64(byte))))) }
        case let .string(text):
            let bytes = Array(text.utf8)
            return bytes.indices.map { index in
                var flipped = bytes
                flipped[index] ^= 0xFF
                // Stored as text whatever the bytes, as a flip on disk would leave them.
                return (set + "CAST(? AS TEXT)", Data(flipped))
            }
        }
    }

    /// Flips every byte of every cell in turn and checks the session after each flip.
    static func expectEveryFlipFound(
        in path: String, cells: [Cell], session: String, naming mention: String
    ) throws -> Int {
        let database = try DatabaseQueue(path: path)
        var count = 0
        for cell in cells {
            for flip in flips(of: cell) {
                let applied = try database.write { db -> Bool in
                    do {
                        try db.execute(sql: flip.sql + " WHERE \(cell.key)", arguments: StatementArguments([flip.argument] + cell.keys))
                        return true
                    } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                        // A flipped key that collides with another row's: no file can hold both.
                        return false
                    }
                }
                guard applied else { continue }
                count += 1
                let report = try LogChecker(path: path).check(session)
                let text = CheckRenderer().render(report).joined(separator: "\n")
                #expect(!report.passed, "\(cell.table).\(cell.column) flipped to \(flip.argument) passed check")
                // A flipped step or session moves the row: it is named where it landed, and
                // the step it left is missing (unless it was the last).
                let moved = cell.table == "event" && (cell.column == "step" || cell.column == "session_id")
                let named = moved ? "(\\bsteps? -?[0-9]+\\b.*does not match|\(mention))" : mention
                #expect(text.range(of: named, options: .regularExpression) != nil, "\(cell.table).\(cell.column): \(text)")
                try database.write { db in
                    var keys: [any DatabaseValueConvertible] = cell.keys
                    // A flipped key moved the row: it is found where the flip put it.
                    if cell.table == "event", cell.column == "session_id" { keys[0] = flip.argument }
                    if cell.table == "event", cell.column == "step" { keys[1] = flip.argument }
                    try db.execute(sql: "UPDATE \(cell.table) SET \(cell.column) = ? WHERE \(cell.key)", arguments: StatementArguments([cell.value] + keys))
                }
                #expect(try LogChecker(path: path).check(session).passed, "restoring \(cell.table).\(cell.column) gave the log back")
            }
        }
        try database.close()
        return count
    }

    @Test func everyByteOfSampleEventsAndTheirSessionRowIsFound() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("demo.rewind")
        try await DemoLog.record(into: path)
        // Session 2: its first step (a keyframe), step 8 (a patch that adds fields) and its
        // last; every column of each, the checksum included.
        let database = try DatabaseQueue(path: path)
        let events = try await database.read { db in try Self.cells(db, table: "event", where: "session_id = 2 AND step IN (1, 8, 28)") }
        let session = try await database.read { db in try Self.cells(db, table: "session", where: "id = 2") }
        try database.close()
        var flips = 0
        for step in [1, 8, 28] {
            let cells = events.filter { $0.keys[1] == Int64(step) }
            flips += try Self.expectEveryFlipFound(in: path, cells: cells, session: "2", naming: "\\bsteps? \(step)\\b")
        }
        flips += try Self.expectEveryFlipFound(
            in: path, cells: session.filter { $0.column != "id" }, session: "2", naming: "the session's row does not match its checksum")
        #expect(flips > 600, "the sample flips every byte of every stored value: \(flips)")
    }

    @Test func everyByteOfAGapMarkerIsFound() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("gaps.rewind")
        try HandmadeLog.withGaps(at: path)
        let database = try DatabaseQueue(path: path)
        let gap = try database.read { db in try Self.cells(db, table: "gap", where: "session_id = 1") }
        try database.close()
        let flips = try Self.expectEveryFlipFound(
            in: path, cells: gap.filter { $0.column != "session_id" }, session: "1", naming: "gap marker")
        #expect(flips > 60)
    }
}
