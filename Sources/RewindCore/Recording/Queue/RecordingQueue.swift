import Atomics

/// The bounded hand-off between dispatch and a recorder's encoder thread (the consumer here:
/// it is all this queue knows of the recorder).
///
/// Three parts, each for one concern: steps go into a ring of slots without a lock
/// (``SlotRing``; a store dispatches on the main actor only, and the recorder serializes every
/// other caller itself); control items (a session's start, a flush, the end), which may come
/// from any thread, wait beside it, each with its cut (``ControlLane``); the consumer naps
/// between batches and pushes wake it (``RingSleeper``). This type joins them and adds what a
/// recorder needs of a full queue: when the steps queued reach the capacity, the overflow
/// policy decides: wait for room, or drop the step and mark a gap before the next one.
@usableFromInline
final class RecordingQueue<Element>: @unchecked Sendable {
    // Sendable by hand: the parts are; of the fields below, `droppedSteps` and `droppedCount`
    // are guarded by `dropLock`, and the rest are constants or atomic.

    @usableFromInline let ring: SlotRing<Element>
    let controls = ControlLane<Element>()
    @usableFromInline let sleeper: RingSleeper
    @usableFromInline let capacity: Int
    @usableFromInline let policy: OverflowPolicy
    @usableFromInline let makeGap: (ClosedRange<Int>) -> Element

    /// What the producer must look at before its next push (`Notice`): set by a dropped step,
    /// a gap marked by a control item, and the end. Atomic, allocated once and destroyed with
    /// the queue.
    @usableFromInline let notices = UnsafeAtomic<Int>.create(0)

    /// Guards the steps dropped and not yet marked, which a control item marks when the
    /// producer has not, and how many were dropped in all.
    @usableFromInline let dropLock = UnfairLock()
    @usableFromInline @exclusivity(unchecked) var droppedSteps: ClosedRange<Int>?
    @usableFromInline @exclusivity(unchecked) var droppedCount = 0

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
        // The capacity for steps and one slot more, for the gap marker that goes before the
        // first step after a drop.
        ring = SlotRing(slotCount: self.capacity + 1)
        sleeper = RingSleeper(wakeThreshold: min(self.capacity / 2, 1_024))
    }

    deinit {
        notices.destroy()
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
    @inlinable @inline(__always)
    func push(step: Int, _ initialize: (_ slot: UnsafeMutablePointer<Element>, _ afterGap: Bool) -> Void) {
        var afterGap = false
        var room = capacity
        if notices.load(ordering: .relaxed) != 0 {
            guard let notices = handleNotices(step: step) else { return }
            afterGap = notices.afterGap
            // The gap marker took the slot beyond the capacity: the step has room.
            if notices.markedGap { room += 1 }
        }
        if !ring.hasRoom(below: room) {
            switch policy {
            case .block:
                guard waitForRoom() else { return }
            case .dropWithGapMarker:
                drop(step)
                return
            }
        }
        initialize(ring.nextSlot, afterGap)
        ring.advance()
        ring.publish()
        // A closure, not the method `ring.hasBacklog(of:)`: that partial application retained
        // and released the ring at every push (40 instructions of a login step's 760, callgrind).
        sleeper.pushed { ring.hasBacklog(of: $0) }
    }

    /// Before the push of `step`: whether a gap was marked since the last step, and whether it
    /// was marked now (the steps dropped go before this one when it has room), or nil once the
    /// queue is closed or when `step` was dropped.
    @usableFromInline
    func handleNotices(step: Int) -> (afterGap: Bool, markedGap: Bool)? {
        dropLock.withLock {
            let current = notices.load(ordering: .relaxed)
            if current & Notice.closed != 0 { return nil }
            if let dropped = droppedSteps {
                // With no room for the marker, the step is dropped too and the gap grows. It
                // is dropped here, not left to the push's own check, which may find room that
                // came meanwhile and queue the step before the marker.
                guard ring.hasRoom(below: capacity) else {
                    droppedSteps = dropped.lowerBound...step
                    droppedCount += 1
                    return nil
                }
                ring.nextSlot.initialize(to: makeGap(dropped))
                ring.advance()
                droppedSteps = nil
                notices.store(0, ordering: .relaxed)
                return (true, true)
            }
            notices.store(0, ordering: .relaxed)
            return (current & Notice.gapMarked != 0, false)
        }
    }

    /// Waits until the ring has room for a step; returns false if the queue was closed
    /// meanwhile (the consumer took the steps before the end, and will take no more).
    @usableFromInline
    func waitForRoom() -> Bool {
        sleeper.waitForRoom { ring.hasRoomInOrder(below: capacity) }
        return notices.load(ordering: .relaxed) & Notice.closed == 0
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
}
