import GRDB
import GRDBSQLite

/// Reads the blocks of one session, as a statement selecting `LogReader.blockColumns` steps
/// through them, into stored steps (``StoredEventVisit``).
///
/// A block is read whole or not at all: its row's columns must hold the types a writer puts
/// there, its steps a range no sound block exceeds, after the block before; its data must
/// inflate to its `size`, and hold one record per step. A block that fails any of these hands
/// over each of its steps with the reason, and no values, so that an audit reports them and a
/// reader stops at the first.
final class EventBlockReader {
    let session: Int
    private var inflater = BlockInflater()
    private let unescaped = UnescapedStrings()
    private var blockColumns: [StoredColumn] = Array(repeating: .null, count: 7)
    private var columns: [StoredColumn] = []
    /// The columns of every record of the block being read, one record after another.
    private var records: [StoredColumn] = []
    /// The last step of the block before, to tell overlapping blocks.
    private var previousLastStep: Int?

    /// No block holds more steps: the writer's are at most `EventBlockWriter.maximumSteps`.
    static let maximumSteps = 1 << 16

    init(session: Int) {
        self.session = session
    }

    /// Reads the block row `handle` stands on and calls `body` with each of its steps within
    /// `steps`; returns false once `body` did.
    func read(
        _ handle: OpaquePointer, steps: ClosedRange<Int>?, path: String, label: String, _ body: (StoredEventVisit) throws -> Bool
    ) throws -> Bool {
        for index in 0..<7 { blockColumns[index] = StoredColumn(Int32(index), of: handle) }
        let rowCheck = checksum()
        guard case let .integer(first) = blockColumns[0], case let .integer(last) = blockColumns[1] else {
            // Without its steps, a block cannot even be placed: one visit names what it holds.
            let problem = StoredValueError(column: "first_step", expected: "an integer", found: blockColumns[0].typeName)
            return try body(unreadable(step: 0, block: nil, rowCheck, "the stored block's \(problem)", path: path, label: label))
        }
        let block = Int(first)...Int(max(first, last))
        defer { previousLastStep = block.upperBound }
        // The block that starts before the range may end before it too.
        if let steps, !steps.overlaps(block) { return true }
        let wanted = steps.map { $0.clamped(to: block) } ?? block
        func visitUnreadable(_ reason: String) throws -> Bool {
            // A block's steps are listed only while they are plausibly a block's.
            guard block.count <= Self.maximumSteps, wanted.count <= Self.maximumSteps else {
                return try body(unreadable(step: block.lowerBound, block: block, rowCheck, reason, path: path, label: label))
            }
            for step in wanted {
                guard try body(unreadable(step: step, block: block, rowCheck, reason, path: path, label: label)) else { return false }
            }
            return true
        }
        if let problem = typeProblem() { return try visitUnreadable("the stored block's \(problem)") }
        guard first <= last, LogReader.stepNumbers.contains(block.lowerBound), LogReader.stepNumbers.contains(block.upperBound),
            block.count <= Self.maximumSteps
        else {
            return try visitUnreadable("the stored block's steps, \(first) through \(last), are not a block's")
        }
        if let previous = previousLastStep, block.lowerBound <= previous {
            return try visitUnreadable("the stored block overlaps the one before")
        }
        guard case let .integer(size) = blockColumns[4], case let .blob(data) = blockColumns[6] else {
            return try visitUnreadable("the stored block's data is not stored as a block's")
        }
        do {
            try inflater.inflate(data, size: Int(size))
        } catch {
            return try visitUnreadable("the stored block cannot be read: \(error)")
        }
        let keyframeFirst = blockColumns[2]
        return try inflater.bytes.withUnsafeBytes { bytes in
            unescaped.reset(capacity: bytes.count)
            // Every record is read before any is handed over: a block is read whole or not at all.
            let width = LogReader.eventChecksumIndex + 1
            records.removeAll(keepingCapacity: true)
            do {
                var scanner = try BlockRecordScanner(bytes, session: session, firstStep: block.lowerBound, unescaped: unescaped)
                var count = 0
                // One record past the row's steps is enough to know there are too many.
                while count <= block.count, try scanner.next(into: &columns) {
                    records.append(contentsOf: columns)
                    count += 1
                }
                guard count == block.count else {
                    let found = count > block.count ? "more than \(block.count) steps" : "\(count) steps"
                    return try visitUnreadable("the stored block holds \(found), but its row says \(block.count)")
                }
            } catch let malformed as BlockRecordScanner.Malformed {
                return try visitUnreadable("the stored block cannot be read: \(malformed)")
            }
            if case .integer(let flag) = keyframeFirst, (flag != 0) != (records[LogReader.EventColumn.keyframe].type != SQLITE_NULL) {
                return try visitUnreadable("the stored block's keyframe flag does not match its first step")
            }
            for step in wanted {
                let start = (step - block.lowerBound) * width
                for index in 0..<width { columns[index] = records[start + index] }
                guard try body(StoredEventVisit(row: StoredEventRow(columns: columns), rowCheck: rowCheck, block: block)) else { return false }
            }
            return true
        }
    }

    /// How the block row compares with its checksum, the values framed by their stored types.
    private func checksum() -> RowCheck {
        guard case let .integer(stored) = blockColumns[5] else { return .mismatch }
        var checksum = RowChecksum(table: "event_block")
        checksum.add(.integer(Int64(session)))
        for index in [0, 1, 2, 3, 4, 6] { checksum.add(blockColumns[index]) }
        return checksum.value == stored ? .verified : .mismatch
    }

    /// The first column of the block row whose type no writer stores there.
    private func typeProblem() -> StoredValueError? {
        let names = ["first_step", "last_step", "keyframe", "last_time", "size", "checksum", "data"]
        for (index, name) in names.enumerated() {
            let column = blockColumns[index]
            switch (index, column) {
            case (3, .real), (3, .integer), (6, .blob): continue
            case (0...5, .integer) where index != 3: continue
            default:
                let expected = index == 3 ? "a real" : index == 6 ? "a blob" : "an integer"
                return StoredValueError(column: name, expected: expected, found: column.typeName)
            }
        }
        return nil
    }

    /// A visit of `step` of a block that cannot be read.
    private func unreadable(step: Int, block: ClosedRange<Int>?, _ rowCheck: RowCheck, _ reason: String, path: String, label: String)
        -> StoredEventVisit
    {
        var columns = [StoredColumn](repeating: .null, count: LogReader.eventChecksumIndex + 1)
        columns[LogReader.EventColumn.sessionID] = .integer(Int64(session))
        columns[LogReader.EventColumn.step] = .integer(Int64(step))
        // One message for every step of the block, which an audit then reports once.
        let place = block.map { "steps \($0.lowerBound) through \($0.upperBound) of session \(label)" } ?? "a block of session \(label)"
        let error = LogError.damage(in: path, "\(place): \(reason)", session: session, step: step)
        return StoredEventVisit(row: StoredEventRow(columns: columns), rowCheck: rowCheck, block: block, unreadable: error)
    }
}
