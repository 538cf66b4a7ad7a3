import Atomics
import Foundation

/// Sleeping and waking around a ring: the consumer's naps and sleep between batches, the
/// producer's wait for room, and the pushes that wake them.
///
/// Between batches the consumer naps for a millisecond at a time and wakes by itself, so a push
/// makes a system call only when a batch is large or the consumer has gone to sleep after
/// being idle for a while (``napsBeforeSleep`` naps).
///
/// A push looks at ``state`` with no fence after publishing, which would make it wait for its
/// slot's stores to reach memory: a consumer starting to wait just then may not see the push,
/// and the push may not see it waiting. Every wait of the consumer is timed (a millisecond
/// while it naps, a second once asleep), so such an item is taken late, never lost. Callers
/// that then wait for the consumer (a flush, the end) wake it with ``wakeInOrder()``, fenced.
@usableFromInline
final class RingSleeper: @unchecked Sendable {
    // Sendable by hand: `state` and `waitingProducers` are atomic, and the condition guards
    // the waits; the sleeper holds nothing else.

    /// Whether the consumer runs, naps or sleeps (``State``).
    @usableFromInline let state = UnsafeAtomic<Int>.create(State.running)
    /// Producers waiting for room.
    let waitingProducers = UnsafeAtomic<Int>.create(0)
    /// Where the consumer sleeps and producers wait for room.
    let condition = NSCondition()
    /// A napping consumer is woken early once this many items wait.
    @usableFromInline let wakeThreshold: Int
    /// Pushes that woke a napping consumer, each with a system call on the dispatching
    /// thread: a batch waiting, or a count of the waiting items gone stale (`IdleDispatchTests`).
    let napsEndedByPushes = ManagedAtomic(0)
    /// Sleeps that lasted their whole ``sleepLimit``, no wake ending them (`RingSleeperTests`).
    let sleepsTimedOut = ManagedAtomic(0)
    /// How long a sleep lasts unless woken, in seconds: 1, or more in a test of waking.
    let sleepLimit: Double

    @usableFromInline
    enum State {
        @inlinable static var running: Int { 0 }
        @inlinable static var napping: Int { 1 }
        @inlinable static var asleep: Int { 2 }
    }

    /// Naps, a millisecond each, after which an idle consumer sleeps instead.
    static var napsBeforeSleep: Int { 50 }

    init(wakeThreshold: Int, sleepLimit: Double = 1) {
        self.wakeThreshold = max(1, wakeThreshold)
        self.sleepLimit = sleepLimit
    }

    deinit {
        state.destroy()
        waitingProducers.destroy()
    }

    // MARK: The producer

    /// After a push: wakes the consumer if it sleeps, or if it naps and a batch is waiting, as
    /// `hasBacklog` says of ``wakeThreshold`` items (asked only then).
    @inlinable @inline(__always)
    func pushed(hasBacklog: (Int) -> Bool) {
        let current = state.load(ordering: .relaxed)
        guard current != State.running else { return }
        if current == State.asleep {
            wake(from: current)
        } else if hasBacklog(wakeThreshold) {
            wakeFromNap()
        }
    }

    @usableFromInline
    func wakeFromNap() {
        napsEndedByPushes.wrappingIncrement(ordering: .relaxed)
        wake(from: State.napping)
    }

    /// Wakes a consumer that naps or sleeps, seen in the single total order of the
    /// sequentially consistent operations: one that starts to wait after this call sees what
    /// was queued before it.
    func wakeInOrder() {
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        let current = state.load(ordering: .sequentiallyConsistent)
        if current != State.running { wake(from: current) }
    }

    @usableFromInline
    func wake(from current: Int) {
        // Only the call that moves the consumer to running signals it.
        guard state.compareExchange(expected: current, desired: State.running, ordering: .sequentiallyConsistent).exchanged else { return }
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `hasRoom` (which must read the consumer's count in the total order) says so.
    func waitForRoom(_ hasRoom: () -> Bool) {
        waitingProducers.wrappingIncrement(ordering: .sequentiallyConsistent)
        condition.lock()
        while !hasRoom() { condition.wait() }
        condition.unlock()
        waitingProducers.wrappingDecrement(ordering: .sequentiallyConsistent)
    }

    // MARK: The consumer

    /// After the consumer took items (and published its count in the total order): wakes the
    /// producers waiting for room.
    func madeRoom() {
        guard waitingProducers.load(ordering: .sequentiallyConsistent) > 0 else { return }
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Rests once, found idle `naps` times in a row before: naps a millisecond, or sleeps up to
    /// ``sleepLimit`` after ``napsBeforeSleep`` naps, unless woken or unless `isIdle` (which must
    /// read in the total order) says something came meanwhile. Returns whether it napped.
    func rest(afterNaps naps: Int, isIdle: () -> Bool) -> Bool {
        let sleeps = naps >= Self.napsBeforeSleep
        var napped = false
        condition.lock()
        state.store(sleeps ? State.asleep : State.napping, ordering: .sequentiallyConsistent)
        if isIdle() {
            let woken = condition.wait(until: Date(timeIntervalSinceNow: sleeps ? sleepLimit : 0.001))
            if sleeps && !woken { sleepsTimedOut.wrappingIncrement(ordering: .relaxed) }
            napped = !sleeps
        }
        state.store(State.running, ordering: .sequentiallyConsistent)
        condition.unlock()
        return napped
    }
}
