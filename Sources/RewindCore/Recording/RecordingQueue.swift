import Foundation

/// The bounded hand-off between dispatch and a recorder's writer thread.
///
/// A push takes one uncontended lock and appends. Between batches the writer naps for a
/// millisecond at a time and wakes by itself, so a push wakes it (a system call) only when a
/// batch is large or the writer has gone to sleep after being idle for a while. When the
/// queue is full, the overflow policy decides: wait for room, or drop the step and queue a gap
/// marker before the next one.
@usableFromInline
final class RecordingQueue<Element>: @unchecked Sendable {
    @usableFromInline let condition = NSCondition()
    @usableFromInline var items: [Element] = []
    @usableFromInline let capacity: Int
    @usableFromInline let policy: OverflowPolicy
    @usableFromInline let makeGap: (ClosedRange<Int>) -> Element
    /// Whether the writer waits without a timeout, so that only a push can wake it.
    @usableFromInline var writerIsAsleep = false
    /// Whether the writer is in a short timed wait.
    @usableFromInline var writerIsNapping = false
    /// A napping writer is woken early once this many items wait.
    @usableFromInline let wakeThreshold: Int
    @usableFromInline var producersAreWaiting = false
    @usableFromInline var droppedSteps: ClosedRange<Int>?
    private var completedTicket = 0
    private var issuedTicket = 0
    @usableFromInline var isClosed = false

    /// Steps dropped so far under `.dropWithGapMarker`; written under the lock on the push
    /// path, so read it through ``dropped``.
    @usableFromInline var droppedCount = 0

    /// Steps dropped so far, read under the lock: any thread may ask while recording goes on.
    var dropped: Int {
        condition.lock()
        defer { condition.unlock() }
        return droppedCount
    }

    init(capacity: Int, policy: OverflowPolicy, makeGap: @escaping (ClosedRange<Int>) -> Element) {
        self.capacity = max(1, capacity)
        self.policy = policy
        self.makeGap = makeGap
        wakeThreshold = max(1, min(self.capacity / 2, 1_024))
        items.reserveCapacity(min(self.capacity, 4_096))
    }

    /// Queues the item of `step`, or drops it when full under `.dropWithGapMarker`; ignores it
    /// once the queue is closed.
    @inlinable
    func push(_ item: Element, step: Int) {
        condition.lock()
        if isClosed {
            condition.unlock()
            return
        }
        if items.count >= capacity {
            switch policy {
            case .block:
                while items.count >= capacity && !isClosed {
                    producersAreWaiting = true
                    condition.wait()
                }
            case .dropWithGapMarker:
                droppedSteps = (droppedSteps?.lowerBound ?? step)...step
                droppedCount += 1
                condition.unlock()
                return
            }
        }
        if let dropped = droppedSteps {
            items.append(makeGap(dropped))
            droppedSteps = nil
        }
        items.append(item)
        if writerIsAsleep || (writerIsNapping && items.count >= wakeThreshold) { wakeWriter() }
        condition.unlock()
    }

    /// Queues a control item past the capacity; returns a ticket for ``waitUntilDone(_:)``.
    ///
    /// - Parameter closing: whether nothing may be queued after this item.
    func pushControl(_ item: Element, closing: Bool = false) -> Int {
        condition.lock()
        defer { condition.unlock() }
        // After close, the last ticket is the finish: waiting for it is all that is left.
        if isClosed { return issuedTicket }
        if closing {
            isClosed = true
            condition.broadcast()
        }
        // Steps dropped since the last push are marked now, so a flush or close never hides them.
        if let dropped = droppedSteps {
            items.append(makeGap(dropped))
            droppedSteps = nil
        }
        items.append(item)
        issuedTicket += 1
        wakeWriter()
        return issuedTicket
    }

    /// Waits until the writer has finished the control item with `ticket`.
    func waitUntilDone(_ ticket: Int) {
        condition.lock()
        while completedTicket < ticket { condition.wait() }
        condition.unlock()
    }

    /// The writer reports that it has finished the next control item.
    func completeTicket() {
        condition.lock()
        completedTicket += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Swaps everything queued into `batch`, waiting while there is nothing.
    ///
    /// The writer hands back its emptied batch, capacity kept, so pushes rarely allocate.
    func takeAll(into batch: inout [Element]) {
        batch.removeAll(keepingCapacity: true)
        condition.lock()
        var naps = 0
        while items.isEmpty {
            if naps < 50 {
                writerIsNapping = true
                _ = condition.wait(until: Date(timeIntervalSinceNow: 0.001))
                naps += 1
            } else {
                writerIsAsleep = true
                condition.wait()
            }
        }
        writerIsAsleep = false
        writerIsNapping = false
        swap(&batch, &items)
        if producersAreWaiting {
            producersAreWaiting = false
            condition.broadcast()
        }
        condition.unlock()
    }

    @usableFromInline
    func wakeWriter() {
        if writerIsAsleep || writerIsNapping {
            writerIsAsleep = false
            writerIsNapping = false
            condition.broadcast()
        }
    }
}
