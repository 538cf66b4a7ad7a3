import Foundation

/// The bounded hand-off from a recorder's encoder thread to its writer thread.
///
/// Each side moves whole batches under one lock, so its cost is per batch, not per step.
/// The encoder waits while `limit` items are pending, so a slow disk bounds memory.
///
/// Batches cross as whole arrays, never element by element: appending one batch's elements to
/// another copied each (its texts retained) and then destroyed the originals, about a tenth of
/// recording a login step (callgrind).
///
/// The writer hands each batch it has written back, and the encoder releases it, reusing its
/// buffer for the next batch: memory is then freed by the thread that allocated it. Freed by
/// the writer, the encoded trees made the two threads contend for the allocator's lock, a
/// tenth of the encoder's time.
final class WriterChannel<Element>: @unchecked Sendable {
    // Sendable by hand: `pending`, `pendingCount` and `written` are touched only between
    // `condition.lock()` and `unlock()`, and `limit` never changes. The elements need not be
    // Sendable (the encoder's hold the app's values): a batch crosses whole, and the side that
    // hands it over keeps no reference to it (`send` leaves `items` empty, `receiveAll`
    // empties `batches` into `written`), so one thread at a time holds each.
    private let condition = NSCondition()
    /// Batches sent and not yet taken, in order.
    private var pending: [[Element]] = []
    /// Items in `pending`.
    private var pendingCount = 0
    /// Batches written, for the encoder to release.
    private var written: [[Element]] = []
    private let limit: Int

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Moves `items` to the writer, leaving `items` empty (with the buffer of a batch the writer
    /// has written, when there is one), and releases the batches the writer has written since
    /// the last call.
    func send(_ items: inout [Element]) {
        guard !items.isEmpty else { return }
        let sent = items.count
        var done: [[Element]] = []
        condition.lock()
        while pendingCount >= limit { condition.wait() }
        pendingCount += items.count
        pending.append(items)
        swap(&done, &written)
        condition.broadcast()
        condition.unlock()
        if var reused = done.popLast() {
            reused.removeAll(keepingCapacity: true)
            items = reused
        } else {
            // Room for a batch like this one, so that the next does not grow step by step.
            items = []
            items.reserveCapacity(sent)
        }
        // `done` goes out of scope here, its elements released on this thread.
    }

    /// Hands `batches`, written, back to the encoder, and moves every batch pending into it,
    /// in order, waiting while there is none.
    func receiveAll(into batches: inout [[Element]]) {
        condition.lock()
        written.append(contentsOf: batches)
        // Each batch is now also in `written`: clearing this array frees none of them.
        batches.removeAll(keepingCapacity: true)
        while pending.isEmpty { condition.wait() }
        swap(&batches, &pending)
        pendingCount = 0
        condition.broadcast()
        condition.unlock()
    }
}
