import Atomics
import Foundation

/// The bounded hand-off between dispatch and a recorder's first thread, the one that encodes
/// (called the writer here: it is all this queue knows of the recorder).
///
/// A ring of slots, allocated once. Producers fill slots under a short lock (several threads
/// may record) and publish their count; the writer thread moves published items out without
/// taking any lock and publishes how far it has read. Between batches the writer naps for a
/// millisecond at a time and wakes by itself, so a push makes a system call only when a
/// batch is large or the writer has gone to sleep after being idle for a while. When the
/// steps queued reach the capacity, the overflow policy decides: wait for room, or drop the
/// step and queue a gap marker before the next one.
@usableFromInline
final class RecordingQueue<Element>: @unchecked Sendable {
    // Fields marked `unchecked` are guarded by hand: the producers' fields by `producerLock`,
    // the writer's by being touched from the writer thread only. Dynamic exclusivity checks
    // would cost more than the rest of a push.

    @usableFromInline let slots: UnsafeMutablePointer<Element>
    /// Slots in the ring: the capacity for steps plus room for control items and gap markers.
    @usableFromInline let slotCount: Int
    @usableFromInline let capacity: Int
    @usableFromInline let policy: OverflowPolicy
    @usableFromInline let makeGap: (ClosedRange<Int>) -> Element
    /// A napping writer is woken early once this many items wait.
    @usableFromInline let wakeThreshold: Int

    // Atomics allocated once and destroyed with the queue: swift-atomics' `UnsafeAtomic`
    // costs what Synchronization's `Atomic` does, which iOS 18 and macOS 15 would require.

    /// Items pushed so far, published by producers.
    @usableFromInline let published = UnsafeAtomic<Int>.create(0)
    /// Items the writer has moved out so far, published by the writer.
    @usableFromInline let consumed = UnsafeAtomic<Int>.create(0)
    /// Whether the writer runs, naps (a millisecond) or sleeps (a second, or until a push wakes it).
    @usableFromInline let writerState = UnsafeAtomic<Int>.create(WriterState.running)
    @usableFromInline let waitingProducers = UnsafeAtomic<Int>.create(0)
    /// Where a sleeping writer, producers waiting for room and threads waiting for a control
    /// item to be done wait.
    @usableFromInline let condition = NSCondition()

    @usableFromInline let producerLock = UnfairLock()
    @usableFromInline @exclusivity(unchecked) var pushedCount = 0
    @usableFromInline @exclusivity(unchecked) var tailIndex = 0
    /// The writer's count as last read: room is known without reading the writer's counter.
    @usableFromInline @exclusivity(unchecked) var consumedSeen = 0
    @usableFromInline @exclusivity(unchecked) var droppedSteps: ClosedRange<Int>?
    /// Steps dropped so far under `.dropWithGapMarker`; read it through ``dropped``.
    @usableFromInline @exclusivity(unchecked) var droppedCount = 0
    @usableFromInline @exclusivity(unchecked) var isClosed = false
    /// Whether a gap marker was queued since the last step: the step after one is told so.
    @usableFromInline @exclusivity(unchecked) var gapQueuedSinceLastStep = false
    @exclusivity(unchecked) private var issuedTicket = 0

    @exclusivity(unchecked) private var consumedCount = 0
    @exclusivity(unchecked) private var headIndex = 0

    /// Guarded by `condition`.
    private var completedTicket = 0

    @usableFromInline
    enum WriterState {
        @inlinable static var running: Int { 0 }
        @inlinable static var napping: Int { 1 }
        @inlinable static var asleep: Int { 2 }
    }

    init(capacity: Int, policy: OverflowPolicy, makeGap: @escaping (ClosedRange<Int>) -> Element) {
        self.capacity = max(1, capacity)
        self.policy = policy
        self.makeGap = makeGap
        slotCount = self.capacity + 8
        slots = .allocate(capacity: slotCount)
        wakeThreshold = max(1, min(self.capacity / 2, 1_024))
    }

    deinit {
        let left = published.load(ordering: .acquiring) - consumedCount
        for offset in 0..<left {
            (slots + (headIndex + offset) % slotCount).deinitialize(count: 1)
        }
        slots.deallocate()
        for atomic in [published, consumed, writerState, waitingProducers] { atomic.destroy() }
    }

    /// Steps dropped so far; any thread may ask while recording goes on.
    var dropped: Int {
        producerLock.withLock { droppedCount }
    }

    /// Queues the item of `step` that `makeItem` builds, or drops it when full under
    /// `.dropWithGapMarker`; ignores it once the queue is closed.
    ///
    /// The item is built in its slot, under the lock, so that it is never copied. `makeItem`
    /// is told whether a gap marker was queued since the last step.
    @inlinable
    func push(step: Int, _ makeItem: (_ afterGap: Bool) -> Element) {
        producerLock.withLock {
            if isClosed { return }
            if pushedCount - consumedSeen >= capacity {
                consumedSeen = consumed.load(ordering: .acquiring)
                if pushedCount - consumedSeen >= capacity {
                    switch policy {
                    case .block:
                        waitForRoom { $0 < capacity }
                    case .dropWithGapMarker:
                        droppedSteps = (droppedSteps?.lowerBound ?? step)...step
                        droppedCount += 1
                        return
                    }
                }
            }
            if let dropped = droppedSteps {
                append(makeGap(dropped))
                droppedSteps = nil
                gapQueuedSinceLastStep = true
            }
            append(makeItem(gapQueuedSinceLastStep))
            gapQueuedSinceLastStep = false
            publish(wakingAlways: false)
        }
    }

    /// Queues a control item past the capacity; returns a ticket for ``waitUntilDone(_:)``.
    ///
    /// - Parameter closing: whether nothing may be queued after this item.
    func pushControl(_ item: Element, closing: Bool = false) -> Int {
        producerLock.withLock {
            // After close, the last ticket is the finish: waiting for it is all that is left.
            if isClosed { return issuedTicket }
            if closing { isClosed = true }
            // Steps dropped since the last push are marked now, so a flush or close never hides them.
            if let dropped = droppedSteps {
                waitForRoom { $0 < slotCount }
                append(makeGap(dropped))
                droppedSteps = nil
                gapQueuedSinceLastStep = true
            }
            waitForRoom { $0 < slotCount }
            append(item)
            issuedTicket += 1
            publish(wakingAlways: true)
            return issuedTicket
        }
    }

    /// Writes `item` into the next slot; the caller holds the producer lock and made room.
    @inlinable
    func append(_ item: __owned Element) {
        (slots + tailIndex).initialize(to: item)
        tailIndex = tailIndex + 1 == slotCount ? 0 : tailIndex + 1
        pushedCount += 1
    }

    /// Makes the appended items visible to the writer, and wakes it if it sleeps, or if it
    /// naps and a batch is waiting.
    @inlinable
    func publish(wakingAlways: Bool) {
        // No fence between the two, which would make this push wait for its slot's stores to
        // reach memory: a writer starting to wait just then may not see this count, and this
        // push may not see it waiting. Every wait of the writer is timed (a millisecond while
        // it naps, a second once asleep), so such a step is written late, never lost; control
        // items, which `flush()` and `close()` wait for, fence here and wake it.
        published.store(pushedCount, ordering: .releasing)
        if wakingAlways { atomicMemoryFence(ordering: .sequentiallyConsistent) }
        let state = writerState.load(ordering: .relaxed)
        guard state != WriterState.running else { return }
        if wakingAlways || state == WriterState.asleep || pushedCount - consumedSeen >= wakeThreshold {
            wakeWriter(from: state)
        }
    }

    @usableFromInline
    func wakeWriter(from state: Int) {
        // Only the push that moves the writer to running signals it.
        guard writerState.compareExchange(expected: state, desired: WriterState.running, ordering: .sequentiallyConsistent).exchanged else { return }
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Waits, holding the producer lock, until `hasRoom` accepts the number of queued items.
    @usableFromInline
    func waitForRoom(_ hasRoom: (Int) -> Bool) {
        consumedSeen = consumed.load(ordering: .acquiring)
        guard !hasRoom(pushedCount - consumedSeen) else { return }
        waitingProducers.wrappingIncrement(ordering: .sequentiallyConsistent)
        condition.lock()
        while true {
            consumedSeen = consumed.load(ordering: .sequentiallyConsistent)
            if hasRoom(pushedCount - consumedSeen) { break }
            condition.wait()
        }
        condition.unlock()
        waitingProducers.wrappingDecrement(ordering: .sequentiallyConsistent)
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

    /// Whether nothing has been published since the last ``takeAll(into:)``; only the writer
    /// thread asks.
    var isDrained: Bool {
        published.load(ordering: .acquiring) == consumedCount
    }

    /// Most items one ``takeAll(into:)`` moves: batches stop growing early, so that a writer
    /// that falls behind does not copy ever larger batches into ever larger buffers (a twentieth
    /// of recording a login step, counted over its first thousands of steps).
    static var batchLimit: Int { 1_024 }

    /// Moves what is queued into `batch`, up to ``batchLimit`` items, waiting while there is
    /// nothing; only the writer thread calls it.
    ///
    /// The writer hands back its emptied batch, capacity kept, so taking rarely allocates.
    func takeAll(into batch: inout [Element]) {
        batch.removeAll(keepingCapacity: true)
        var naps = 0
        while true {
            let end = min(published.load(ordering: .acquiring), consumedCount + Self.batchLimit)
            if end != consumedCount {
                for _ in consumedCount..<end {
                    batch.append((slots + headIndex).move())
                    headIndex = headIndex + 1 == slotCount ? 0 : headIndex + 1
                }
                consumedCount = end
                consumed.store(end, ordering: .sequentiallyConsistent)
                if waitingProducers.load(ordering: .sequentiallyConsistent) > 0 {
                    condition.lock()
                    condition.broadcast()
                    condition.unlock()
                }
                return
            }
            let sleeps = naps >= 50
            condition.lock()
            writerState.store(sleeps ? WriterState.asleep : WriterState.napping, ordering: .sequentiallyConsistent)
            if published.load(ordering: .sequentiallyConsistent) == consumedCount {
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
