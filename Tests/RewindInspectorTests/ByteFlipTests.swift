import Foundation
import GRDB
import RewindInspector
import RewindLog
import Testing

/// Every single-byte change to a stored value is found: each byte of each column of sample
/// rows (a block of steps, its compressed data byte by byte, a session row, a gap marker) is
/// flipped in turn, and `check` must fail naming the steps, the session or the gap, for every
/// flip.
@Suite struct ByteFlipTests {
    /// One stored value and how to put a changed one back.
    struct Cell {
        var table: String
        var column: String
        var key: String
        var keys: [Int64]
        var value: DatabaseValue
    }

    /// The stored values of the rows `sql` selects (with their rowid, or for a block its
    /// primary key, `session_id` and `first_step`).
    static func cells(_ db: Database, table: String, where condition: String) throws -> [Cell] {
        let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String }
        let key = table == "event_block" ? "session_id = ? AND first_step = ?" : "rowid = ?"
        let keyColumns = table == "event_block" ? "session_id, first_step" : "rowid"
        var cells: [Cell] = []
        for row in try Row.fetchAll(db, sql: "SELECT \(keyColumns), * FROM \(table) WHERE \(condition)") {
            let keys: [Int64] = table == "event_block" ? [row[0], row[1]] : [row[0]]
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
        case .null:
            return []
        case let .blob(data):
            let bytes = [UInt8](data)
            return bytes.indices.map { index in
                var flipped = bytes
                flipped[index] ^= 0xFF
                return (set + "?", Data(flipped))
            }
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
                // A flipped first or last step or session moves the block: it is named where it
                // landed (its steps, the step out of bounds, or its rows left without a session).
                let moved = cell.table == "event_block" && ["first_step", "last_step", "session_id"].contains(cell.column)
                let named = moved ? "(\\bsteps? -?[0-9]+\\b|step numbered -?[0-9]+|rows? of session #|\(mention))" : mention
                #expect(text.range(of: named, options: .regularExpression) != nil, "\(cell.table).\(cell.column): \(text)")
                try database.write { db in
                    var keys: [any DatabaseValueConvertible] = cell.keys
                    // A flipped key moved the row: it is found where the flip put it.
                    if cell.table == "event_block", cell.column == "session_id" { keys[0] = flip.argument }
                    if cell.table == "event_block", cell.column == "first_step" { keys[1] = flip.argument }
                    try db.execute(sql: "UPDATE \(cell.table) SET \(cell.column) = ? WHERE \(cell.key)", arguments: StatementArguments([cell.value] + keys))
                }
                #expect(try LogChecker(path: path).check(session).passed, "restoring \(cell.table).\(cell.column) gave the log back")
            }
        }
        try database.close()
        return count
    }

    @Test func everyByteOfASampleBlockAndItsSessionRowIsFound() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("demo.rewind")
        try await DemoLog.record(into: path)
        // Session 2: its one block, steps 1 through 28 (a keyframe, then patches); every
        // column, its compressed data byte by byte and its checksum included.
        let database = try DatabaseQueue(path: path)
        let block = try await database.read { db in try Self.cells(db, table: "event_block", where: "session_id = 2") }
        let session = try await database.read { db in try Self.cells(db, table: "session", where: "id = 2") }
        try database.close()
        var flips = try Self.expectEveryFlipFound(in: path, cells: block, session: "2", naming: "\\bsteps? [0-9]+\\b")
        #expect(flips > 300, "the block's data alone is hundreds of bytes: \(flips)")
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
