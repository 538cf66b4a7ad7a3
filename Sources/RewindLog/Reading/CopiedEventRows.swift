/// Event rows copied out of SQLite's memory, for another thread to decode: the batch a
/// ``RowPrefetcher`` hands over.
///
/// The rows are copied as bytes, not decoded: the trees a decode builds would then be made on
/// one thread and released on the other, and handing them over cost the two threads more in
/// reference counts and the allocator's locks than decoding them (`check` of a login log took
/// longer on two threads than on one). One buffer holds the bytes of every row of the batch,
/// so that a batch reused allocates nothing once its buffers have grown.
struct CopiedEventRows: Sendable {
    /// What the reading thread learned of a row beside its columns.
    struct Facts: Sendable {
        var rowCheck: RowCheck
        var typeProblem: StoredValueError?
        var block: ClosedRange<Int>?
        var unreadable: LogError?

        init(rowCheck: RowCheck) {
            self.rowCheck = rowCheck
        }

        /// What `visit` says beside its row.
        init(_ visit: StoredEventVisit) {
            rowCheck = visit.rowCheck
            typeProblem = visit.typeProblem
            block = visit.block
            unreadable = visit.unreadable
        }

        /// The visit of `row` these facts were taken from.
        func visit(_ row: StoredEventRow) -> StoredEventVisit {
            StoredEventVisit(row: row, rowCheck: rowCheck, typeProblem: typeProblem, block: block, unreadable: unreadable)
        }
    }

    private enum Column: Sendable {
        case null
        case integer(Int64)
        case real(Double)
        case text(Range<Int>)
        case blob(Range<Int>)
    }

    private var bytes: [UInt8] = []
    /// `columnsPerRow` columns a row.
    private var columns: [Column] = []
    private var facts: [Facts] = []
    private var columnsPerRow = 0

    var count: Int { facts.count }

    /// Empties the batch, keeping its buffers.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        columns.removeAll(keepingCapacity: true)
        facts.removeAll(keepingCapacity: true)
    }

    /// Copies `row`, whose text and blobs point into SQLite's memory.
    mutating func append(_ row: StoredEventRow, _ facts: Facts) {
        // Every row as wide as a block's (`event`'s rows have no effects column): a batch may
        // hold both kinds, a block's unreadable steps among its read ones.
        columnsPerRow = LogReader.eventEffectsIndex + 1
        precondition(row.columns.count <= columnsPerRow, "an event row wider than a block's")
        for column in row.columns {
            switch column {
            case .null: columns.append(.null)
            case let .integer(value): columns.append(.integer(value))
            case let .real(value): columns.append(.real(value))
            case let .text(text): columns.append(.text(copy(text)))
            case let .blob(blob): columns.append(.blob(copy(blob)))
            }
        }
        columns.append(contentsOf: repeatElement(.null, count: columnsPerRow - row.columns.count))
        self.facts.append(facts)
    }

    private mutating func copy(_ source: UnsafeRawBufferPointer) -> Range<Int> {
        let start = bytes.count
        bytes.append(contentsOf: source)
        return start..<bytes.count
    }

    /// Calls `body` with each row, its text and blobs pointing into the batch, while it
    /// returns true; returns whether it always did.
    func forEach<Failure: Error>(_ body: (StoredEventRow, Facts) throws(Failure) -> Bool) throws(Failure) -> Bool {
        // `withUnsafeBytes` only rethrows untyped errors: the body's is kept aside.
        var failure: Failure?
        let wentOn = bytes.withUnsafeBytes { base in
            var row = [StoredColumn](repeating: .null, count: columnsPerRow)
            for index in facts.indices {
                for column in 0..<columnsPerRow {
                    row[column] =
                        switch columns[index * columnsPerRow + column] {
                        case .null: .null
                        case let .integer(value): .integer(value)
                        case let .real(value): .real(value)
                        case let .text(range): .text(UnsafeRawBufferPointer(rebasing: base[range]))
                        case let .blob(range): .blob(UnsafeRawBufferPointer(rebasing: base[range]))
                        }
                }
                do throws(Failure) {
                    guard try body(StoredEventRow(columns: row), facts[index]) else { return false }
                } catch {
                    failure = error
                    return false
                }
            }
            return true
        }
        if let failure { throw failure }
        return wentOn
    }
}
