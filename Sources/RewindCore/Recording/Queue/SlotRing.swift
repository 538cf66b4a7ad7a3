import Atomics

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A ring of slots allocated once, between one producer and one consumer, without a lock.
///
/// The producer builds each item in its slot (``nextSlot``, ``advance()``) and publishes how
/// many it has pushed (``publish()``); the consumer moves published items out, in order, and
/// publishes how many it has taken. Each side keeps its own cursor and reads the other's
/// counter only when it must: the producer knows it has room from the count it last read.
/// Neither side checks that the ring has room: the producer asks ``hasRoom(below:)`` first.
///
/// A lock on the dispatch path cost a fifth of recording a step (13 ns of 62, `rewind bench`).
@usableFromInline
final class SlotRing<Element>: @unchecked Sendable {
    // Sendable by hand: the producer's fields are touched by one producer at a time, the
    // consumer's by the consumer thread only; the two meet through `published` and `consumed`
    // alone. Dynamic exclusivity checks would cost more than a push.

    @usableFromInline let slots: UnsafeMutablePointer<Element>
    @usableFromInline let slotCount: Int

    // Atomics allocated once and destroyed with the ring: swift-atomics' `UnsafeAtomic` costs
    // what Synchronization's `Atomic` does, which iOS 18 and macOS 15 would require.

    /// Items pushed so far, published by the producer.
    @usableFromInline let published = UnsafeAtomic<Int>.create(0)
    /// Items taken so far, published by the consumer.
    @usableFromInline let consumed = UnsafeAtomic<Int>.create(0)

    /// The producer's: how many items it pushed, where the next goes, and the consumer's count
    /// as it last read it.
    @usableFromInline @exclusivity(unchecked) var pushedCount = 0
    @usableFromInline @exclusivity(unchecked) var tailIndex = 0
    @usableFromInline @exclusivity(unchecked) var consumedSeen = 0

    /// The consumer's: how many items it took, and where the next is.
    @exclusivity(unchecked) var consumedCount = 0
    @exclusivity(unchecked) var headIndex = 0

    init(slotCount: Int) {
        self.slotCount = max(1, slotCount)
        slots = .allocate(capacity: self.slotCount)
    }

    deinit {
        for offset in 0..<(published.load(ordering: .acquiring) - consumedCount) {
            (slots + (headIndex + offset) % slotCount).deinitialize(count: 1)
        }
        slots.deallocate()
        published.destroy()
        consumed.destroy()
    }

    /// Has the system map every page of the slots now, from the consumer's thread, so that
    /// the producer's first write to each does not fault on the dispatching thread.
    ///
    /// Allocated memory is mapped page by page at its first write: on the login state a slot
    /// takes 192 bytes, so one push in 21 faulted, 5-25 µs on this machine, until the ring
    /// had wrapped once (16,384 steps): the 99th percentile of a dispatch at a human pace was
    /// 14 µs against 0.9 µs without a recorder (`rewind bench`, 2026-11-29). Locking the
    /// pages in memory maps them without writing to them (the producer may be writing to the
    /// first ones meanwhile); unlocking them at once leaves them mapped. 64 KB at a time, the
    /// smallest limit on locked memory (Linux's before 5.16); where the system refuses, the
    /// rest fault as before. `SlotRingTests` counts the faults.
    func mapPages() {
        let bytes = slotCount * MemoryLayout<Element>.stride
        let chunk = 1 << 16
        for offset in stride(from: 0, to: bytes, by: chunk) {
            let start = UnsafeMutableRawPointer(slots) + offset
            let length = min(chunk, bytes - offset)
            guard mlock(start, length) == 0 else { return }
            munlock(start, length)
        }
    }

    // MARK: The producer

    /// Items pushed and not yet taken, as far as the producer knows (it may be fewer).
    @inlinable @inline(__always)
    var backlog: Int { pushedCount - consumedSeen }

    /// Whether `limit` or more items wait: the count the producer knows, read again from the
    /// consumer's when that one says so.
    ///
    /// The producer reads the consumer's count only when it must: ``hasRoom(below:)`` does when
    /// the ring looks full. A producer that never fills the ring (an app at a human pace) never
    /// read it, so after `limit` steps its own count said `limit` waited at every push, and
    /// each push woke the napping consumer with a system call: 3-15 µs of each dispatch on a
    /// 1,000-photo state, against 0.4 µs without a recorder (`rewind bench`, 2026-11-29).
    @inlinable @inline(__always)
    func hasBacklog(of limit: Int) -> Bool {
        if pushedCount - consumedSeen < limit { return false }
        consumedSeen = consumed.load(ordering: .acquiring)
        return pushedCount - consumedSeen >= limit
    }

    /// Whether fewer than `limit` items wait, reading the consumer's count only when the one
    /// last read says no.
    @inlinable @inline(__always)
    func hasRoom(below limit: Int) -> Bool {
        if pushedCount - consumedSeen < limit { return true }
        consumedSeen = consumed.load(ordering: .acquiring)
        return pushedCount - consumedSeen < limit
    }

    /// ``hasRoom(below:)``, reading the consumer's count in the single total order of the
    /// sequentially consistent operations, for a producer about to wait for the consumer.
    func hasRoomInOrder(below limit: Int) -> Bool {
        consumedSeen = consumed.load(ordering: .sequentiallyConsistent)
        return pushedCount - consumedSeen < limit
    }

    /// The slot the next item is built in, uninitialized.
    @inlinable @inline(__always)
    var nextSlot: UnsafeMutablePointer<Element> { slots + tailIndex }

    /// Counts the item just built in ``nextSlot``, which the consumer sees once published.
    @inlinable @inline(__always)
    func advance() {
        tailIndex = tailIndex + 1 == slotCount ? 0 : tailIndex + 1
        pushedCount += 1
    }

    /// Makes the items counted so far visible to the consumer.
    @inlinable @inline(__always)
    func publish() {
        published.store(pushedCount, ordering: .releasing)
    }

    /// Items pushed so far, as published; any thread.
    var publishedCount: Int {
        published.load(ordering: .acquiring)
    }

    // MARK: The consumer

    /// Whether the consumer has taken every item published.
    var isDrained: Bool {
        published.load(ordering: .acquiring) == consumedCount
    }

    /// ``isDrained``, in the single total order of the sequentially consistent operations, for
    /// a consumer about to wait for the producer.
    var isDrainedInOrder: Bool {
        published.load(ordering: .sequentiallyConsistent) == consumedCount
    }

    /// Moves the items published after those taken, up to the `count`th item ever pushed, to
    /// the end of `batch`, in order; returns whether it moved any.
    ///
    /// Inlined into its caller, generic code that the app's module does not specialize: called,
    /// it looked up the metadata of `[Element]` at each batch, mostly of one step (330
    /// instructions, 2 % of recording a login step; callgrind).
    @inline(__always)
    func take(upTo count: Int, into batch: inout [Element]) -> Bool {
        let last = min(count, published.load(ordering: .acquiring))
        guard last > consumedCount else { return false }
        for _ in consumedCount..<last {
            batch.append((slots + headIndex).move())
            headIndex = headIndex + 1 == slotCount ? 0 : headIndex + 1
        }
        consumedCount = last
        // In the total order, so that a producer that starts to wait after this store sees
        // the room, and one that waits before it is seen waiting (`RingSleeper`).
        consumed.store(last, ordering: .sequentiallyConsistent)
        return true
    }
}
