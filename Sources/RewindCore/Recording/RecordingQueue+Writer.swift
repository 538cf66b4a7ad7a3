import Atomics
import Foundation

/// The writer thread's side: it moves steps out of the ring, and control items in their turn.
extension RecordingQueue {
    /// Most items one ``takeAll(into:)`` moves: batches stop growing early, so that a writer
    /// that falls behind does not copy ever larger batches into ever larger buffers (a twentieth
    /// of recording a login step, counted over its first thousands of steps).
    static var batchLimit: Int { 1_024 }

    /// Whether nothing is waiting: no step published since the last ``takeAll(into:)`` and no
    /// control item; only the writer thread asks.
    var isDrained: Bool {
        published.load(ordering: .acquiring) == consumedCount && pendingControls.load(ordering: .acquiring) == 0
    }

    /// Moves what is queued into `batch`, in order: steps up to ``batchLimit`` of them, and a
    /// control item once every step before its cut is in; waits while there is nothing. Only
    /// the writer thread calls it.
    ///
    /// The writer hands back its emptied batch, capacity kept, so taking rarely allocates.
    func takeAll(into batch: inout [Element]) {
        batch.removeAll(keepingCapacity: true)
        var naps = 0
        while true {
            let end = published.load(ordering: .acquiring)
            let cut = pendingControls.load(ordering: .acquiring) > 0 ? controlLock.withLock { controls.first?.cut } : nil
            let last = min(end, cut ?? end, consumedCount + Self.batchLimit)
            if last > consumedCount {
                for _ in consumedCount..<last {
                    batch.append((slots + headIndex).move())
                    headIndex = headIndex + 1 == slotCount ? 0 : headIndex + 1
                }
                consumedCount = last
                consumed.store(last, ordering: .sequentiallyConsistent)
                if waitingProducers.load(ordering: .sequentiallyConsistent) > 0 {
                    condition.lock()
                    condition.broadcast()
                    condition.unlock()
                }
            }
            if let cut, cut <= consumedCount {
                batch.append(controlLock.withLock { controls.removeFirst().item })
                pendingControls.wrappingDecrement(ordering: .releasing)
            }
            if !batch.isEmpty { return }
            let sleeps = naps >= 50
            condition.lock()
            writerState.store(sleeps ? WriterState.asleep : WriterState.napping, ordering: .sequentiallyConsistent)
            if published.load(ordering: .sequentiallyConsistent) == consumedCount && pendingControls.load(ordering: .sequentiallyConsistent) == 0 {
                if sleeps {
                    _ = condition.wait(until: Date(timeIntervalSinceNow: 1))
                } else {
                    _ = condition.wait(until: Date(timeIntervalSinceNow: 0.001))
                    naps += 1
                }
            }
            writerState.store(WriterState.running, ordering: .sequentiallyConsistent)
            condition.unlock()
        }
    }
}
