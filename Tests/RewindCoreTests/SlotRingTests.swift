import Foundation
import Testing

@testable import RewindCore

@Suite struct SlotRingTests {
    /// Pushes `items` the way a producer does: built in the slot, counted, published.
    private func push<Element>(_ items: [Element], into ring: SlotRing<Element>) {
        for item in items {
            ring.nextSlot.initialize(to: item)
            ring.advance()
        }
        ring.publish()
    }

    private func takeAll<Element>(from ring: SlotRing<Element>) -> [Element] {
        var batch: [Element] = []
        _ = ring.take(upTo: .max, into: &batch)
        return batch
    }

    @Test func itemsComeOutInTheOrderPushed() {
        let ring = SlotRing<Int>(slotCount: 8)
        push([5, 3, 9, 1], into: ring)
        #expect(takeAll(from: ring) == [5, 3, 9, 1])
        #expect(ring.isDrained)
    }

    @Test func aRingOfOneSlotHoldsOneItemAtATime() {
        let ring = SlotRing<String>(slotCount: 1)
        var taken: [String] = []
        for item in ["a", "b", "c"] {
            #expect(ring.hasRoom(below: 1))
            push([item], into: ring)
            #expect(!ring.hasRoom(below: 1))
            taken += takeAll(from: ring)
        }
        #expect(taken == ["a", "b", "c"])
    }

    @Test func itemsWrapAroundTheEndOfTheSlots() {
        let ring = SlotRing<Int>(slotCount: 3)
        var taken: [Int] = []
        // Two at a time through three slots: each round starts one slot further on.
        for round in 0..<10 {
            #expect(ring.hasRoom(below: 2))
            push([2 * round, 2 * round + 1], into: ring)
            taken += takeAll(from: ring)
        }
        #expect(taken == Array(0..<20))
        #expect(ring.tailIndex == 20 % 3 && ring.headIndex == 20 % 3)
    }

    @Test func roomIsCountedFromWhatTheConsumerHasTaken() {
        let ring = SlotRing<Int>(slotCount: 4)
        push([1, 2, 3], into: ring)
        #expect(ring.hasRoom(below: 4))
        #expect(!ring.hasRoom(below: 3))
        var batch: [Int] = []
        #expect(ring.take(upTo: 2, into: &batch))
        #expect(batch == [1, 2])
        // The producer reads the consumer's count again only when the one it knows says full.
        #expect(ring.backlog == 3)
        #expect(ring.hasRoom(below: 3))
        #expect(ring.backlog == 1)
    }

    /// A producer that never fills the ring still learns what the consumer took before it
    /// says a batch waits: one that did not woke a napping consumer at every push past the
    /// threshold, a system call on each dispatch of an app at a human pace.
    @Test func aBacklogIsCountedFromWhatTheConsumerHasTaken() {
        let ring = SlotRing<Int>(slotCount: 8)
        var batch: [Int] = []
        for value in 0..<20 {
            push([value], into: ring)
            #expect(ring.take(upTo: .max, into: &batch))
            #expect(!ring.hasBacklog(of: 4), "after push \(value), the consumer has taken everything")
        }
        push([20, 21, 22], into: ring)
        #expect(!ring.hasBacklog(of: 4))
        push([23], into: ring)
        #expect(ring.hasBacklog(of: 4))
        #expect(ring.take(upTo: .max, into: &batch))
        #expect(!ring.hasBacklog(of: 4))
        #expect(batch == Array(0..<24))
    }

    @Test func theConsumerTakesOnlyWhatIsPublished() {
        let ring = SlotRing<Int>(slotCount: 4)
        ring.nextSlot.initialize(to: 1)
        ring.advance()
        var batch: [Int] = []
        #expect(!ring.take(upTo: .max, into: &batch))
        #expect(ring.isDrained)
        ring.publish()
        #expect(!ring.isDrained)
        #expect(ring.take(upTo: .max, into: &batch))
        #expect(batch == [1])
    }

    @Test func itemsLeftInTheRingAreReleasedWithIt() {
        final class Tracked {}
        weak var taken: Tracked?
        weak var left1: Tracked?
        weak var left2: Tracked?
        var batch: [Tracked] = []
        do {
            let ring = SlotRing<Tracked>(slotCount: 3)
            let items = [Tracked(), Tracked(), Tracked()]
            (taken, left1, left2) = (items[0], items[1], items[2])
            push(items, into: ring)
            _ = ring.take(upTo: 1, into: &batch)
        }
        #expect(left1 == nil && left2 == nil)
        #expect(taken != nil, "the item taken belongs to the consumer now")
        batch.removeAll()
        #expect(taken == nil)
    }

    @Test(.timeLimit(.minutes(1)))
    func aProducerAndAConsumerOnTwoThreadsAgreeOnTheOrder() {
        let count = 5_000
        let ring = SlotRing<Int>(slotCount: 7)
        let producer = OwnThread {
            for item in 0..<count {
                spin { ring.hasRoom(below: 7) }
                ring.nextSlot.initialize(to: item)
                ring.advance()
                // Published now and then, as a producer that batches would.
                if item % 3 == 0 || item == count - 1 { ring.publish() }
            }
        }
        var taken: [Int] = []
        while taken.count < count {
            if !ring.take(upTo: .max, into: &taken) { sched_yield() }
        }
        producer.wait()
        #expect(taken == Array(0..<count))
    }

    // Not under a sanitizer, whose shadow memory faults beside every first write.
    #if os(Linux) && !REWIND_SANITIZED
    /// A slot the size of a login step's (192 bytes): 21 to a page.
    struct Wide: Equatable {
        var words: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)
        static func == (lhs: Wide, rhs: Wide) -> Bool { lhs.words.0 == rhs.words.0 && lhs.words.23 == rhs.words.23 }
    }

    /// The page faults this thread has taken so far (`getrusage`'s minor faults).
    private func pageFaults() -> Int {
        var usage = rusage()
        getrusage(1, &usage)  // RUSAGE_THREAD, which Glibc does not import
        return usage.ru_minflt
    }

    /// Pushes into every slot of a fresh ring of 200,000 wide slots: the faults of the
    /// producer's first writes, counted, not timed. 38 MB, so that the C library maps new
    /// memory for it (it reuses freed memory only below 32 MB), whose pages no test has
    /// written before.
    private func faultsOfFirstWrites(mapped: Bool) -> (faults: Int, items: [Wide]) {
        let ring = SlotRing<Wide>(slotCount: 200_000)
        if mapped {
            // On another thread, as the recorder's encoder does.
            let done = DispatchSemaphore(value: 0)
            Thread {
                ring.mapPages()
                done.signal()
            }.start()
            done.wait()
        }
        let items = (0..<ring.slotCount).map { index in
            Wide(words: (index, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -index))
        }
        let before = pageFaults()
        push(items, into: ring)
        let faults = pageFaults() - before
        return (faults, takeAll(from: ring))
    }

    /// The recorder's encoder maps the ring's pages when it starts, so that the dispatching
    /// thread's first write to each does not fault (one push in 21 of a login session's
    /// first 16,384 did, 5-25 µs each). What was pushed comes out whole.
    @Test func mappedPagesDoNotFaultWhenTheProducerFirstWritesThem() {
        let unmapped = faultsOfFirstWrites(mapped: false)
        let mapped = faultsOfFirstWrites(mapped: true)
        #expect(unmapped.faults >= 9_000, "38 MB written for the first time: 9,375 pages")
        #expect(mapped.faults < 100)
        #expect(mapped.items == unmapped.items && mapped.items.count == 200_000)
    }
    #endif
}
