import Foundation

/// The bounded hand-off from a recorder's encoder thread to its writer thread.
///
/// Each side moves whole batches under one lock, so its cost is per batch, not per step.
/// The encoder waits while `limit` items are pending, so a slow disk bounds memory.
///
/// The writer hands each batch it has written back, and the encoder releases it: memory is
/// then freed by the thread that allocated it. Freed by the writer, the encoded trees made
/// the two threads contend for the allocator's lock, a tenth of the encoder's time.
final class WriterChannel<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [Element] = []
    private var written: [Element] = []
    private let limit: Int

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Moves `items` to the writer, leaving `items` empty with its capacity, and releases the
    /// batches the writer has written since the last call.
    func send(_ items: inout [Element]) {
        guard !items.isEmpty else { return }
        var done: [Element] = []
        condition.lock()
        while pending.count >= limit { condition.wait() }
        if pending.isEmpty {
            swap(&pending, &items)
        } else {
            pending.append(contentsOf: items)
        }
        swap(&done, &written)
        condition.broadcast()
        condition.unlock()
        items.removeAll(keepingCapacity: true)
        done.removeAll()
    }

    /// Hands `batch`, written, back to the encoder, and moves everything pending into it,
    /// waiting while there is nothing.
    func receiveAll(into batch: inout [Element]) {
        condition.lock()
        if written.isEmpty {
            swap(&written, &batch)
        } else {
            written.append(contentsOf: batch)
        }
        while pending.isEmpty { condition.wait() }
        // `batch` is empty or holds elements now also in `written`: clearing it frees nothing.
        batch.removeAll(keepingCapacity: true)
        swap(&batch, &pending)
        condition.broadcast()
        condition.unlock()
    }
}
