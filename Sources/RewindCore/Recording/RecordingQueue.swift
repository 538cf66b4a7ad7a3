import Atomics
import Foundation

/// The bounded hand-off between dispatch and a recorder's first thread, the one that encodes
/// (called the writer here: it is all this queue knows of the recorder).
///
/// Steps go into a ring of slots allocated once, written by one producer at a time without a
/// lock: a store dispatches on the main actor only, and the recorder serializes every other
/// caller itself. The producer publishes its count, and the writer thread moves published
/// items out and publishes how far it has read. Control items (a session's start, a flush, the
/// end) may come from any thread, so they do not enter the ring: each waits in a short list,
/// with the count the ring had published when it came (its cut), and the writer takes it once
/// it has taken every step before the cut. A lock on the dispatch path cost a fifth of
/// recording a step (13 ns of 62, `rewind bench`).
///
/// Between batches the writer naps for a millisecond at a time and wakes by itself, so a push
/// makes a system call only when a batch is large or the writer has gone to sleep after being
/// idle for a while. When the steps queued reach the capacity, the overflow policy decides:
/// wait for room, or drop the step and mark a gap before the next one.
@usableFromInline
final class RecordingQueue<Element>: @unchecked Sendable {
    // Fields marked `unchecked` are guarded by hand: the producer's by there being one producer
    // at a time, the writer's by being touched from the writer thread only, the others by the
    // lock named beside them. Dynamic exclusivity checks would cost more than a push.

    @usableFromInline let slots: UnsafeMutablePointer<Element>
    /// Slots in the ring: the capacity for steps and one more, for the gap marker that goes
    /// before the first step after a drop.
    @usableFromInline let slotCount: Int
    @usableFromInline let capacity: Int
    @usableFromInline let policy: OverflowPolicy
    @usableFromInline let makeGap: (ClosedRange<Int>) -> Element
    /// A napping writer is woken early once this many items wait.
    @usableFromInline let wakeThreshold: Int

    // Atomics allocated once and destroyed with the queue: swift-atomics' `UnsafeAtomic`
    // costs what Synchronization's `Atomic` does, which iOS 18 and macOS 15 would require.

    /// Items pushed into the ring so far, published by the producer.
    @usableFromInline let published = UnsafeAtomic<Int>.create(0)
    /// Items the writer has moved out of the ring so far, published by the writer.
    @usableFromInline let consumed = UnsafeAtomic<Int>.create(0)
    /// Whether the writer runs, naps (a millisecond) or sleeps (a second, or until a push wakes it).
    @usableFromInline let writerState = UnsafeAtomic<Int>.create(WriterState.running)
    @usableFromInline let waitingProducers = UnsafeAtomic<Int>.create(0)
    /// What the producer must look at before its next push (`Notice`): set by a dropped step,
    /// a gap marked by a control item, and the end.
    @usableFromInline let notices = UnsafeAtomic<Int>.create(0)
    /// Control items waiting in `controls`.
    let pendingControls = UnsafeAtomic<Int>.create(0)
    /// Where a sleeping writer, a producer waiting for room and threads waiting for a control
    /// item to be done wait.
    @usableFromInline let condition = NSCondition()

    /// The producer's: how many items it pushed, where the next goes, and the writer's count
    /// as it last read it (room is known without reading the writer's counter).
    @usableFromInline @exclusivity(unchecked) var pushedCount = 0
    @usableFromInline @exclusivity(unchecked) var tailIndex = 0
    @usableFromInline @exclusivity(unchecked) var consumedSeen = 0

    /// Guards the steps dropped and not yet marked, which a control item marks when the
    /// producer has not, and how many were dropped in all.
    @usableFromInline let dropLock = UnfairLock()
    @usableFromInline @exclusivity(unchecked) var droppedSteps: ClosedRange<Int>?
    @usableFromInline @exclusivity(unchecked) var droppedCount = 0

    /// Guards the control items, each with its cut, and the tickets issued.
    let controlLock = UnfairLock()
    @exclusivity(unchecked) var controls: [(item: Element, cut: Int)] = []
    @exclusivity(unchecked) var issuedTicket = 0
    @exclusivity(unchecked) var isClosed = false

    /// The writer's.
    @exclusivity(unchecked) var consumedCount = 0
    @exclusivity(unchecked) var headIndex = 0

    /// Guarded by `condition`.
    var completedTicket = 0

    @usableFromInline
    enum WriterState {
        @inlinable static var running: Int { 0 }
        @inlinable static var napping: Int { 1 }
        @inlinable static var asleep: Int { 2 }
    }

    /// Bits of `notices`.
    @usableFromInline
    enum Notice {
        /// Steps were dropped and not yet marked.
        @inlinable static var dropped: Int { 1 }
        /// A gap was marked since the last step, which must be told so.
        @inlinable static var gapMarked: Int { 2 }
        /// The queue is closed: pushes are ignored.
        @inlinable static var closed: Int { 4 }
    }

    init(capacity: Int, policy: OverflowPolicy, makeGap: @escaping (ClosedRange<Int>) -> Element) {
        self.capacity = max(1, capacity)
        self.policy = policy
        self.makeGap = makeGap
        slotCount = self.capacity + 1
        slots = .allocate(capacity: slotCount)
        wakeThreshold = max(1, min(self.capacity / 2, 1_024))
    }

    deinit {
        let left = published.load(ordering: .acquiring) - consumedCount
        for offset in 0..<left {
            (slots + (headIndex + offset) % slotCount).deinitialize(count: 1)
        }
        slots.deallocate()
        for atomic in [published, consumed, writerState, waitingProducers, notices, pendingControls] { atomic.destroy() }
    }

    /// Steps dropped so far; any thread may ask while recording goes on.
    var dropped: Int {
        dropLock.withLock { droppedCount }
    }

    // MARK: The producer

    /// Queues the item of `step` that `initialize` writes into its slot, or drops it when full
    /// under `.dropWithGapMarker`; ignores it once the queue is closed. One producer at a time.
    ///
    /// The item is built in its slot, so that it is never copied. `initialize` is told whether
    /// a gap was marked since the last step.
    @inlinable
    func push(step: Int, _ initialize: (_ slot: UnsafeMutablePointer<Element>, _ afterGap: Bool) -> Void) {
        var afterGap = false
        var room = capacity
        if notices.load(ordering: .relaxed) != 0 {
            guard let notices = handleNotices() else { return }
            // Steps dropped and not yet marked, and no room for their marker: this step goes
            // into the same gap, even if the writer makes room meanwhile. Pushed, it would be
            // stored before the marker of the steps that came before it, and a later drop
            // would stretch that gap over it: a step both stored and marked missing (seen
            // under the thread sanitizer, `stepsDroppedAtTheEndAreMarkedWhenClosing`).
            if notices.joinsGap {
                drop(step)
                return
            }
            afterGap = notices.afterGap
            // The gap marker took the slot beyond the capacity: the step has room.
            if notices.markedGap { room += 1 }
        }
        if pushedCount - consumedSeen >= room {
            consumedSeen = consumed.load(ordering: .acquiring)
            if pushedCount - consumedSeen >= room {
                switch policy {
                case .block:
                    waitForRoom()
                case .dropWithGapMarker:
                    drop(step)
                    return
                }
            }
        }
        initialize(slots + tailIndex, afterGap)
        advanceTail()
        publish()
    }

    /// Counts the item just written into the slot at `tailIndex`, and moves to the next slot.
    @inlinable @inline(__always)
    func advanceTail() {
        tailIndex = tailIndex + 1 == slotCount ? 0 : tailIndex + 1
        pushedCount += 1
    }

    /// Before a push: whether a gap was marked since the last step, whether it was marked now
    /// (the steps dropped go before this one when it has room), and whether this step must
    /// join the steps dropped (no room for their marker); nil once the queue is closed.
    @usableFromInline
    func handleNotices() -> (afterGap: Bool, markedGap: Bool, joinsGap: Bool)? {
        dropLock.withLock {
            let current = notices.load(ordering: .relaxed)
            if current & Notice.closed != 0 { return nil }
            if let dropped = droppedSteps {
                consumedSeen = consumed.load(ordering: .acquiring)
                // With no room for the step, it is dropped too and the gap grows; marked later.
                guard pushedCount - consumedSeen < capacity else { return (false, false, true) }
                (slots + tailIndex).initialize(to: makeGap(dropped))
                advanceTail()
                droppedSteps = nil
                notices.store(0, ordering: .relaxed)
                return (true, true, false)
            }
            notices.store(0, ordering: .relaxed)
            return (current & Notice.gapMarked != 0, false, false)
        }
    }

    /// Counts `step` as dropped, to be marked as a gap before the next step that fits.
    @usableFromInline
    func drop(_ step: Int) {
        dropLock.withLock {
            droppedSteps = (droppedSteps?.lowerBound ?? step)...step
            droppedCount += 1
            notices.store(notices.load(ordering: .relaxed) | Notice.dropped, ordering: .relaxed)
        }
    }

    /// Makes the pushed items visible to the writer, and wakes it if it sleeps, or if it naps
    /// and a batch is waiting.
    @inlinable @inline(__always)
    func publish() {
        // No fence between the two, which would make this push wait for its slot's stores to
        // reach memory: a writer starting to wait just then may not see this count, and this
        // push may not see it waiting. Every wait of the writer is timed (a millisecond while
        // it naps, a second once asleep), so such a step is written late, never lost; control
        // items, which `flush()` and `close()` wait for, fence and wake it.
        published.store(pushedCount, ordering: .releasing)
        let state = writerState.load(ordering: .relaxed)
        guard state != WriterState.running else { return }
        if state == WriterState.asleep || pushedCount - consumedSeen >= wakeThreshold {
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

    /// Waits until the ring has room.
    @usableFromInline
    func waitForRoom() {
        waitingProducers.wrappingIncrement(ordering: .sequentiallyConsistent)
        condition.lock()
        while true {
            consumedSeen = consumed.load(ordering: .sequentiallyConsistent)
            if pushedCount - consumedSeen < capacity { break }
            condition.wait()
        }
        condition.unlock()
        waitingProducers.wrappingDecrement(ordering: .sequentiallyConsistent)
    }
}
