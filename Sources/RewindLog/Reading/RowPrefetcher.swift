import Foundation

/// Reads a long run of event rows on a thread of its own while the calling thread decodes and
/// uses the rows before them: a whole-session pass over a long log on two cores, not one.
///
/// The reading thread steps SQLite, compares each row with its checksum and copies the rows
/// into batches (``CopiedEventRows``); the calling thread decodes them and does the pass's
/// work. Batches go over one at a time, so that the threads meet once a batch rather than
/// once a row, and come back empty to be filled again; the reader stays at most `batchLimit`
/// batches ahead, which bounds the memory held. The rows reach the calling thread in order,
/// then the reader's error if it failed, exactly as a pass on one thread would meet them. The
/// reader is stopped and waited for before ``run(_:consume:)`` returns or throws: no thread
/// outlives the pass, since each may be reading the file.
final class RowPrefetcher: @unchecked Sendable {
    // Unchecked: every field below is guarded by `condition`, but `filling`, which only the
    // reading thread touches.
    private let condition = NSCondition()
    private var ready: [CopiedEventRows] = []
    private var readyHead = 0
    /// Batches the calling thread is done with, to be filled again.
    private var spent: [CopiedEventRows] = []
    private var finished = false
    private var failure: LogError?
    private var cancelled = false
    private var filling = CopiedEventRows()
    let rowsPerBatch: Int
    let batchLimit: Int

    init(rowsPerBatch: Int = 512, batchLimit: Int = 8) {
        self.rowsPerBatch = max(1, rowsPerBatch)
        self.batchLimit = max(1, batchLimit)
    }

    /// Runs `read` on a new thread, handing each row it pushes (``push(_:_:)``) to `consume`
    /// on this one, in order, until `consume` returns false or throws, or `read` ends.
    ///
    /// Returns how `read` ended when `consume` took every row; what `consume` throws is thrown.
    func run<Failure: Error>(
        _ read: @escaping @Sendable (RowPrefetcher) throws(LogError) -> Void,
        consume: (StoredEventRow, CopiedEventRows.Facts) throws(Failure) -> Bool
    ) throws(Failure) -> Result<Void, LogError> {
        let reader = Thread { [self] in
            do throws(LogError) {
                try read(self)
                end(with: nil)
            } catch {
                end(with: error)
            }
        }
        // As deep as the calling thread may go: a patch applied recurses once a level.
        reader.stackSize = 8 << 20
        reader.start()
        defer { cancelAndWait() }
        var done: CopiedEventRows?
        while true {
            switch take(returning: &done) {
            case .batch(let batch):
                guard try batch.forEach(consume) else { return .success(()) }
                done = batch
            case .end(let failure):
                return failure.map { .failure($0) } ?? .success(())
            }
        }
    }

    /// Adds a row to the batch being filled, on the reading thread; false once the calling
    /// thread wants no more.
    func push(_ row: StoredEventRow, _ facts: CopiedEventRows.Facts) -> Bool {
        filling.append(row, facts)
        return filling.count < rowsPerBatch || handOver()
    }

    /// Hands the batch being filled over, waiting while `batchLimit` batches wait already,
    /// and takes an empty one back.
    private func handOver() -> Bool {
        condition.lock()
        while !cancelled && ready.count - readyHead >= batchLimit { condition.wait() }
        let wanted = !cancelled
        var next = CopiedEventRows()
        if wanted && filling.count > 0 {
            ready.append(filling)
            next = spent.popLast() ?? next
        }
        condition.broadcast()
        condition.unlock()
        next.removeAll()
        filling = next
        return wanted
    }

    private func end(with error: LogError?) {
        _ = handOver()
        condition.lock()
        failure = error
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    private enum Taken {
        case batch(CopiedEventRows)
        /// The reader has ended, and all it read was taken.
        case end(LogError?)
    }

    /// The next batch, waiting for it, or the reader's end; gives `done`, the batch last
    /// taken, back to be filled again.
    private func take(returning done: inout CopiedEventRows?) -> Taken {
        condition.lock()
        defer { condition.unlock() }
        if let batch = done {
            spent.append(batch)
            done = nil
        }
        while readyHead == ready.count && !finished { condition.wait() }
        guard readyHead < ready.count else { return .end(failure) }
        let batch = ready[readyHead]
        ready[readyHead] = CopiedEventRows()
        readyHead += 1
        if readyHead == ready.count {
            ready.removeAll(keepingCapacity: true)
            readyHead = 0
        }
        condition.broadcast()
        return .batch(batch)
    }

    /// Tells the reader to stop and waits until it has ended.
    private func cancelAndWait() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }
}
