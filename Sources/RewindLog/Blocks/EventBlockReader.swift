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
    private let inflater = BlockInflater()
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

    /// What reading a block row found before its records: nothing wanted of it, why it cannot
    /// be read, or its steps inflated into `inflater`.
    private enum Opened {
        case skipped
        /// Without its steps, a block cannot even be placed: one visit names what it holds.
        case unplaced(RowCheck, reason: String)
        case unreadable(block: ClosedRange<Int>, wanted: ClosedRange<Int>, RowCheck, reason: String)
        case inflated(block: ClosedRange<Int>, wanted: ClosedRange<Int>, RowCheck)
    }

    /// Reads the block row `handle` stands on, checks it, and inflates it when it may be read.
    private func open(_ handle: OpaquePointer, steps: ClosedRange<Int>?) -> Opened {
        for index in 0..<7 { blockColumns[index] = StoredColumn(Int32(index), of: handle) }
        let rowCheck = checksum()
        guard case let .integer(first) = blockColumns[0], case let .integer(last) = blockColumns[1] else {
            let problem = StoredValueError(column: "first_step", expected: "an integer", found: blockColumns[0].typeName)
            return .unplaced(rowCheck, reason: "the stored block's \(problem)")
        }
        let block = Int(first)...Int(max(first, last))
        defer { previousLastStep = block.upperBound }
        // The block that starts before the range may end before it too.
        if let steps, !steps.overlaps(block) { return .skipped }
        let wanted = steps.map { $0.clamped(to: block) } ?? block
        func unreadable(_ reason: String) -> Opened { .unreadable(block: block, wanted: wanted, rowCheck, reason: reason) }
        if let problem = typeProblem() { return unreadable("the stored block's \(problem)") }
        guard first <= last, LogReader.stepNumbers.contains(block.lowerBound), LogReader.stepNumbers.contains(block.upperBound),
            block.count <= Self.maximumSteps
        else {
            return unreadable("the stored block's steps, \(first) through \(last), are not a block's")
        }
        if let previous = previousLastStep, block.lowerBound <= previous {
            return unreadable("the stored block overlaps the one before")
        }
        guard case let .integer(size) = blockColumns[4], case let .blob(data) = blockColumns[6] else {
            return unreadable("the stored block's data is not stored as a block's")
        }
        do {
            try inflater.inflate(data, size: Int(size))
        } catch {
            return unreadable("the stored block cannot be read: \(error)")
        }
        return .inflated(block: block, wanted: wanted, rowCheck)
    }

    /// Hands over each wanted step of a block that cannot be read, with the reason; false once
    /// `body` returned false.
    private func visitUnreadable(
        _ opened: Opened, path: String, label: String, _ body: (StoredEventVisit) throws -> Bool
    ) throws -> Bool {
        switch opened {
        case .skipped, .inflated:
            return true
        case let .unplaced(rowCheck, reason):
            return try body(unreadable(step: 0, block: nil, rowCheck, reason, path: path, label: label))
        case let .unreadable(block, wanted, rowCheck, reason):
            // A block's steps are listed only while they are plausibly a block's.
            guard block.count <= Self.maximumSteps, wanted.count <= Self.maximumSteps else {
                return try body(unreadable(step: block.lowerBound, block: block, rowCheck, reason, path: path, label: label))
            }
            for step in wanted {
                guard try body(unreadable(step: step, block: block, rowCheck, reason, path: path, label: label)) else { return false }
            }
            return true
        }
    }

    /// Reads the block row `handle` stands on and calls `body` with each of its steps within
    /// `steps`; returns false once `body` did.
    func read(
        _ handle: OpaquePointer, steps: ClosedRange<Int>?, path: String, label: String, _ body: (StoredEventVisit) throws -> Bool
    ) throws -> Bool {
        let opened = open(handle, steps: steps)
        guard case let .inflated(block, wanted, rowCheck) = opened else { return try visitUnreadable(opened, path: path, label: label, body) }
        func fail(_ reason: String) throws -> Bool {
            try visitUnreadable(.unreadable(block: block, wanted: wanted, rowCheck, reason: reason), path: path, label: label, body)
        }
        let keyframeFirst = blockColumns[2]
        return try inflater.bytes.withUnsafeBytes { bytes in
            unescaped.reset(capacity: bytes.count)
            // Every record is read before any is handed over: a block is read whole or not at all.
            let width = LogReader.eventEffectsIndex + 1
            records.removeAll(keepingCapacity: true)
            do {
                var scanner = try BlockRecordScanner(bytes, session: session, firstStep: block.lowerBound, unescaped: unescaped)
                var count = 0
                // One record past the row's steps is enough to know there are too many.
                while count <= block.count, try scanner.next(into: &columns) {
                    records.append(contentsOf: columns)
                    count += 1
                }
                if let problem = Self.countProblem(count, block) { return try fail(problem) }
            } catch let malformed as BlockRecordScanner.Malformed {
                return try fail("the stored block cannot be read: \(malformed)")
            }
            if case .integer(let flag) = keyframeFirst, (flag != 0) != (records[LogReader.EventColumn.keyframe].type != SQLITE_NULL) {
                return try fail("the stored block's keyframe flag does not match its first step")
            }
            for step in wanted {
                let start = (step - block.lowerBound) * width
                for index in 0..<width { columns[index] = records[start + index] }
                guard try body(StoredEventVisit(row: StoredEventRow(columns: columns), rowCheck: rowCheck, block: block)) else { return false }
            }
            return true
        }
    }

    /// Reads only the action, the digest and the behaviour (cause, outputs, effects) of each
    /// wanted step of the block row `handle` stands on, all a replay needs, and calls `body`
    /// with them (their JSON texts valid during the call); returns false once `body` did.
    ///
    /// The block is checked as ``read(_:steps:path:label:_:)`` checks it, and `check` gets
    /// the visit of each step that it would hand over damaged (a verifying reader throws).
    func readActions(
        _ handle: OpaquePointer, steps: ClosedRange<Int>?, path: String, label: String, check: (StoredEventVisit) throws -> Void,
        _ body: (Int, BlockRecordScanner.ActionRecord) throws -> Bool
    ) throws -> Bool {
        let opened = open(handle, steps: steps)
        func visitor(_ visit: StoredEventVisit) throws -> Bool {
            try check(visit)
            return true
        }
        guard case let .inflated(block, wanted, rowCheck) = opened else { return try visitUnreadable(opened, path: path, label: label, visitor) }
        if rowCheck == .mismatch {
            // Named at the first step wanted, as a full read would name it.
            var visit = unreadable(step: wanted.lowerBound, block: block, rowCheck, "", path: path, label: label)
            visit.unreadable = nil
            try check(visit)
        }
        return try inflater.bytes.withUnsafeBytes { bytes in
            actions.removeAll(keepingCapacity: true)
            do {
                var scanner = try BlockRecordScanner(bytes, session: session, firstStep: block.lowerBound, unescaped: unescaped)
                while actions.count <= block.count, let found = try scanner.nextAction(readingBehaviour: true) {
                    actions.append(found)
                }
            } catch let malformed as BlockRecordScanner.Malformed {
                return try visitUnreadable(
                    .unreadable(block: block, wanted: wanted, rowCheck, reason: "the stored block cannot be read: \(malformed)"), path: path, label: label,
                    visitor)
            }
            if let problem = Self.countProblem(actions.count, block) {
                return try visitUnreadable(.unreadable(block: block, wanted: wanted, rowCheck, reason: problem), path: path, label: label, visitor)
            }
            for step in wanted {
                guard try body(step, actions[step - block.lowerBound]) else { return false }
            }
            return true
        }
    }

    /// The actions, digests and behaviour of the block being read by
    /// ``readActions(_:steps:path:label:check:_:)``.
    private var actions: [BlockRecordScanner.ActionRecord] = []

    /// Why `count` records do not fit `block`, if they do not.
    private static func countProblem(_ count: Int, _ block: ClosedRange<Int>) -> String? {
        guard count != block.count else { return nil }
        let found = count > block.count ? "more than \(block.count) steps" : "\(count) steps"
        return "the stored block holds \(found), but its row says \(block.count)"
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
        var columns = [StoredColumn](repeating: .null, count: LogReader.eventEffectsIndex + 1)
        columns[LogReader.EventColumn.sessionID] = .integer(Int64(session))
        columns[LogReader.EventColumn.step] = .integer(Int64(step))
        // One message for every step of the block, which an audit then reports once.
        let place = block.map { "steps \($0.lowerBound) through \($0.upperBound) of session \(label)" } ?? "a block of session \(label)"
        let error = LogError.damage(in: path, "\(place): \(reason)", session: session, step: step)
        return StoredEventVisit(row: StoredEventRow(columns: columns), rowCheck: rowCheck, block: block, unreadable: error)
    }
}
