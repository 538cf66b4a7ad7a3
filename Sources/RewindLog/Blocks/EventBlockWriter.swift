import Foundation
import GRDB
import GRDBSQLite
import RewindCore
import RewindJSON

/// Groups a session's steps into blocks and writes them (format 3): each block a row of
/// `event_block`, its steps' records deflated together.
///
/// A block starts at a keyframe, after a step that is missing, or once the block before holds
/// ``maximumSteps`` steps, and takes every step after it until one of those. The last block
/// stays open: each commit writes it again with the steps it added (only they are compressed:
/// ``BlockDeflater`` keeps its stream), so a session recorded a step at a time still fills
/// whole blocks, and a reader sees every committed step.
///
/// Used inside the sink's write transactions only; after one fails, ``discardOpenBlock()``
/// must be called, since the open block's stream went ahead of what the file holds.
final class EventBlockWriter {
    let session: Int
    private let deflater = BlockDeflater()
    // Unchecked: every step touches these, and their accesses were checked for exclusivity at
    // run time (with the deflater's, 320 instructions a login step). Only the sink's writing
    // connection touches them, and no method passes one inout to code that could reach this
    // object again.
    /// The open block, if any: what its row holds, but for `data`, `size` and the checksum.
    @exclusivity(unchecked) private var open: OpenBlock?
    /// Whether the open block has steps its row does not hold yet.
    @exclusivity(unchecked) private var isDirty = false
    @exclusivity(unchecked) private var record = JSONCanonicalWriter(capacity: 1_024)

    /// A block holds at most this many steps: the recorder's default keyframe interval, so
    /// that a block of a small state is a keyframe and the patches after it, and a seek
    /// inflates one block (a large state's keyframes are further apart: see
    /// `KeyframeSchedule`).
    static let maximumSteps = 256

    init(session: Int) {
        self.session = session
    }

    /// Adds `events`, in step order, and writes every block they changed.
    func append(_ events: [RecordedEvent], in db: Database) throws {
        for event in events {
            let isKeyframe: Bool
            if case .keyframe = event.state { isKeyframe = true } else { isKeyframe = false }
            try add(step: event.step, time: event.time, isKeyframe: isKeyframe, in: db)
            BlockRecord.write(event, to: &record)
            record.withBytes { deflater.append($0) }
        }
        try writeOpenBlock(in: db)
    }

    /// Adds the steps of `texts`, in step order, and writes every block they changed: their
    /// texts go into the records as they are.
    func append(_ texts: RecordedTexts, in db: Database) throws {
        for step in texts.steps {
            try add(step: step.step, time: step.time, isKeyframe: step.isKeyframe, in: db)
            BlockRecord.write(step, of: texts, to: &record)
            record.withBytes { deflater.append($0) }
        }
        try writeOpenBlock(in: db)
    }

    /// Makes room for `step` in the open block, or in a new one, and starts its record in
    /// `record`: a comma and a new line after the block's first.
    private func add(step: Int, time: Date, isKeyframe: Bool, in db: Database) throws {
        // The time its record stores, as readers will read it.
        let time = BlockRecord.seconds(BlockRecord.microseconds(time.timeIntervalSince1970))
        if let block = open, !isKeyframe, step == block.lastStep + 1, block.lastStep - block.firstStep + 1 < Self.maximumSteps {
            open = OpenBlock(firstStep: block.firstStep, lastStep: step, startsWithKeyframe: block.startsWithKeyframe, lastTime: time)
            record.reset()
            // A record a line: a replay finds the next one without reading the rest of this one.
            record.text(",\n")
        } else {
            try writeOpenBlock(in: db)
            try compactOpenBlock(in: db)
            deflater.reset()
            open = OpenBlock(firstStep: step, lastStep: step, startsWithKeyframe: isKeyframe, lastTime: time)
            record.reset()
            record.byte(UInt8(ascii: "["))
        }
        isDirty = true
    }

    /// A block stored this many times or more is compressed again, whole, when it closes.
    static let compactionThreshold = 8

    /// Writes the open block, about to close, compressed again in one pass if it was stored
    /// many times: an app that commits a step or two at a time still gets small blocks, for one
    /// more compression a block. The session's last block, never closed, stays as it is.
    private func compactOpenBlock(in db: Database) throws {
        guard let block = open, deflater.storeCount >= Self.compactionThreshold else { return }
        try write(block, data: deflater.compacted(closing: UInt8(ascii: "]")), in: db)
    }

    /// Ends the session's last block: written again compressed in one pass if it was stored
    /// many times.
    func close(in db: Database) throws {
        try compactOpenBlock(in: db)
        discardOpenBlock()
    }

    /// Forgets the open block: the next step starts a new one. After a failed transaction,
    /// the file holds the block as its last successful commit wrote it.
    func discardOpenBlock() {
        open = nil
        isDirty = false
        deflater.reset()
    }

    /// Writes the open block's row, if it has steps the row does not hold.
    private func writeOpenBlock(in db: Database) throws {
        guard isDirty, let block = open else { return }
        try write(block, data: deflater.stored(closing: UInt8(ascii: "]")), in: db)
        isDirty = false
    }

    /// Writes the row of `block` with `data`, over the one it had.
    private func write(_ block: OpenBlock, data: [UInt8], in db: Database) throws {
        let row = EventBlockRow(
            session: session, firstStep: block.firstStep, lastStep: block.lastStep, startsWithKeyframe: block.startsWithKeyframe,
            lastTime: block.lastTime, size: deflater.size + 1)
        let statement = try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO event_block (session_id, first_step, last_step, keyframe, last_time, size, checksum, data)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
        let handle = statement.sqliteStatement
        let checksum = data.withUnsafeBytes { row.checksum(data: $0) }
        sqlite3_bind_int64(handle, 1, Int64(row.session))
        sqlite3_bind_int64(handle, 2, Int64(row.firstStep))
        sqlite3_bind_int64(handle, 3, Int64(row.lastStep))
        sqlite3_bind_int64(handle, 4, row.startsWithKeyframe ? 1 : 0)
        sqlite3_bind_double(handle, 5, row.lastTime)
        sqlite3_bind_int64(handle, 6, Int64(row.size))
        sqlite3_bind_int64(handle, 7, checksum)
        let result = data.withUnsafeBytes { bytes -> Int32 in
            // Bound without a copy: the bytes stay alive until the statement is reset.
            sqlite3_bind_blob(handle, 8, bytes.baseAddress, Int32(bytes.count), nil)
            let result = sqlite3_step(handle)
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
            return result
        }
        guard result == SQLITE_DONE else {
            let message = db.sqliteConnection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            throw DatabaseError(resultCode: ResultCode(rawValue: result), message: message)
        }
    }
}

/// The block a writer adds steps to: what its row holds, but for `data`, `size` and the checksum.
private struct OpenBlock {
    var firstStep: Int
    var lastStep: Int
    var startsWithKeyframe: Bool
    var lastTime: Double
}

/// The columns of an `event_block` row but its data and checksum.
struct EventBlockRow: Equatable {
    var session: Int
    var firstStep: Int
    var lastStep: Int
    /// Whether the block's first step stores a keyframe.
    var startsWithKeyframe: Bool
    /// The time of the block's last step, seconds since 1970.
    var lastTime: Double
    /// The length of the block's JSON, inflated.
    var size: Int

    /// The row's checksum with `data`, over the columns in the order of `LogSchema.columns`.
    func checksum(data: UnsafeRawBufferPointer) -> Int64 {
        var checksum = RowChecksum(table: "event_block")
        checksum.add(session)
        checksum.add(firstStep)
        checksum.add(lastStep)
        checksum.add(startsWithKeyframe ? 1 : 0)
        checksum.add(lastTime)
        checksum.add(size)
        checksum.add(blob: data)
        return checksum.value
    }
}
