import CZlib
import Foundation
import GRDB
import RewindJSON

/// Changes the blocks of a log by hand, as damage or a hand with `sqlite3` would: the steps a
/// block stores are edited as JSON (one record per step, docs/log-format.md), the block is
/// deflated again, and its checksum is recomputed or left as it was.
///
/// It knows the format from docs/log-format.md alone, not from RewindLog's code: the checksum
/// and the blocks' compression are written out again here, so that the tests also check that
/// the format is as documented.
public struct BlockSurgery {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// One block row as stored.
    public struct Block {
        public var firstStep: Int
        public var lastStep: Int
        public var keyframe: Int
        public var lastTime: Double
        public var size: Int
        public var checksum: Int64
        public var data: [UInt8]

        /// Its records, one per step, inflated and parsed.
        public func records() throws -> [JSONValue] {
            guard case let .array(records) = try JSONValue(parsing: try BlockSurgery.inflate(data, size: size)) else {
                throw BlockSurgeryError("not an array")
            }
            return records
        }

        /// The block holding `records` from `firstStep` on, deflated, with a checksum for
        /// `session` when `resealing` (else the checksum it had).
        mutating func replace(records: [JSONValue], session: Int, resealing: Bool) {
            let text = JSONValue.array(records).canonicalBytes
            size = text.count
            data = Self.deflate(text)
            lastStep = firstStep + records.count - 1
            if case let .array(last)? = records.last, case let .int(microseconds)? = last.first { lastTime = Double(microseconds) / 1_000_000 }
            if resealing { reseal(session: session) }
        }

        /// Recomputes the checksum from the values as they are now.
        mutating func reseal(session: Int) {
            var hash = Checksum(table: "event_block")
            for value in [session, firstStep, lastStep, keyframe] { hash.add(integer: Int64(value)) }
            hash.add(real: lastTime)
            hash.add(integer: Int64(size))
            hash.add(blob: data)
            checksum = hash.value
        }

        public static func deflate(_ bytes: [UInt8]) -> [UInt8] {
            var length = compressBound(UInt(bytes.count))
            var output = [UInt8](repeating: 0, count: Int(length))
            _ = output.withUnsafeMutableBufferPointer { out in
                bytes.withUnsafeBufferPointer { input in compress(out.baseAddress, &length, input.baseAddress, UInt(input.count)) }
            }
            return Array(output.prefix(Int(length)))
        }
    }

    /// The block of `session` that holds `step`.
    public func block(session: Int, holding step: Int) throws -> Block {
        try DatabaseQueue(path: path).read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT first_step, last_step, keyframe, last_time, size, checksum, data FROM event_block
                        WHERE session_id = ?1 AND first_step <= ?2 ORDER BY first_step DESC LIMIT 1
                        """, arguments: [session, step])
            else { throw BlockSurgeryError("no block holds step \(step) of session \(session)") }
            return Block(
                firstStep: row["first_step"], lastStep: row["last_step"], keyframe: row["keyframe"], lastTime: row["last_time"],
                size: row["size"], checksum: row["checksum"], data: [UInt8](row["data"] as Data))
        }
    }

    /// Writes `block` over the one of `session` starting at `first` (its first step as it was).
    public func write(_ block: Block, session: Int, replacing first: Int) throws {
        try DatabaseQueue(path: path).write { db in
            try db.execute(
                sql: """
                    UPDATE event_block SET first_step = ?, last_step = ?, keyframe = ?, last_time = ?, size = ?, checksum = ?, data = ?
                    WHERE session_id = ? AND first_step = ?
                    """,
                arguments: [
                    block.firstStep, block.lastStep, block.keyframe, block.lastTime, block.size, block.checksum, Data(block.data),
                    session, first,
                ])
        }
    }

    /// Edits the record of `step` of `session` (an array: time, digest, origin, action_type,
    /// action, patch, keyframe, cause, outputs), the block's checksum recomputed when `resealing`.
    public func editRecord(session: Int, step: Int, resealing: Bool = false, _ edit: (inout [JSONValue]) throws -> Void) throws {
        var block = try block(session: session, holding: step)
        var records = try block.records()
        guard case var .array(record) = records[step - block.firstStep] else { throw BlockSurgeryError("step \(step) is no array") }
        try edit(&record)
        records[step - block.firstStep] = .array(record)
        let first = block.firstStep
        block.replace(records: records, session: session, resealing: resealing)
        try write(block, session: session, replacing: first)
    }

    /// Edits the JSON text of the block holding `step` of `session`, inflated, as a hand could
    /// leave it (not necessarily valid); the checksum recomputed when `resealing`.
    public func editText(session: Int, step: Int, resealing: Bool = false, _ edit: (inout String) throws -> Void) throws {
        var block = try block(session: session, holding: step)
        var text = String(decoding: try Self.inflate(block.data, size: block.size), as: UTF8.self)
        try edit(&text)
        let bytes = Array(text.utf8)
        block.size = bytes.count
        block.data = Block.deflate(bytes)
        if resealing { block.reseal(session: session) }
        try write(block, session: session, replacing: block.firstStep)
    }

    /// Takes `step` out of its block as if it had never been written: the block is split in two
    /// around it, each with a checksum of its own, as a writer that lost the step would leave them.
    public func removeStep(session: Int, step: Int) throws {
        var block = try block(session: session, holding: step)
        let records = try block.records()
        let index = step - block.firstStep
        let first = block.firstStep
        var after = block
        block.replace(records: Array(records[..<index]), session: session, resealing: true)
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "DELETE FROM event_block WHERE session_id = ? AND first_step = ?", arguments: [session, first])
        }
        if index > 0 {
            try insert(block, session: session)
        }
        if index + 1 < records.count {
            after.firstStep = step + 1
            after.keyframe = 0
            after.replace(records: Array(records[(index + 1)...]), session: session, resealing: true)
            try insert(after, session: session)
        }
    }

    private func insert(_ block: Block, session: Int) throws {
        try DatabaseQueue(path: path).write { db in
            try db.execute(
                sql: """
                    INSERT INTO event_block (session_id, first_step, last_step, keyframe, last_time, size, checksum, data)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [session, block.firstStep, block.lastStep, block.keyframe, block.lastTime, block.size, block.checksum, Data(block.data)])
        }
    }

    /// Every block of the log inflated, one after another: what its compressed bytes hold,
    /// for looking for a text that compression hides from a search of the file.
    public func inflatedBlocks() throws -> [UInt8] {
        let blocks = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT size, data FROM event_block ORDER BY session_id, first_step").map { row in
                (size: row["size"] as Int, data: [UInt8](row["data"] as Data))
            }
        }
        return try blocks.flatMap { try Self.inflate($0.data, size: $0.size) }
    }

    /// The stored (compressed) bytes of every block of `session`.
    public func storedBlocks(session: Int) throws -> [[UInt8]] {
        try DatabaseQueue(path: path).read { db in
            try Data.fetchAll(db, sql: "SELECT data FROM event_block WHERE session_id = ? ORDER BY first_step", arguments: [session]).map { [UInt8]($0) }
        }
    }

    /// Runs `sql` on the log, as a hand with `sqlite3` would, and returns the rows it changed.
    @discardableResult
    public func execute(_ sql: String, _ arguments: StatementArguments = []) throws -> Int {
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: sql, arguments: arguments)
            return db.changesCount
        }
    }
}

extension BlockSurgery {
    /// A block's data inflated: as it is when its length is the size, else a zlib stream.
    static func inflate(_ data: [UInt8], size: Int) throws -> [UInt8] {
        guard data.count != size else { return data }
        var output = [UInt8](repeating: 0, count: size)
        var length = UInt(size)
        let status = output.withUnsafeMutableBufferPointer { out in
            data.withUnsafeBufferPointer { input in uncompress(out.baseAddress, &length, input.baseAddress, UInt(input.count)) }
        }
        guard status == Z_OK, length == UInt(size) else { throw BlockSurgeryError("the block does not inflate (zlib \(status))") }
        return output
    }

    /// A row's checksum as docs/log-format.md defines it: 64-bit words, each value framed by
    /// its SQLite type, the table's name first.
    struct Checksum {
        private(set) var hash: UInt64 = 0xcbf2_9ce4_8422_2325

        init(table: String) {
            add(framed: 3, Array(table.utf8))
        }

        var value: Int64 { Int64(bitPattern: hash) }

        mutating func add(integer: Int64) {
            mix(1)
            mix(UInt64(bitPattern: integer))
        }

        mutating func add(real: Double) {
            mix(2)
            mix(real.bitPattern)
        }

        mutating func add(blob: [UInt8]) {
            add(framed: 4, blob)
        }

        private mutating func add(framed type: UInt64, _ bytes: [UInt8]) {
            mix(type)
            mix(UInt64(bytes.count))
            for start in stride(from: 0, to: bytes.count, by: 8) {
                var word: UInt64 = 0
                for (offset, byte) in bytes[start..<min(start + 8, bytes.count)].enumerated() { word |= UInt64(byte) << (8 * UInt64(offset)) }
                mix(word)
            }
        }

        private mutating func mix(_ word: UInt64) {
            hash = (hash ^ word) &* 0x9e37_79b9_7f4a_7c15
            hash ^= hash >> 32
        }
    }
}

public struct BlockSurgeryError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
