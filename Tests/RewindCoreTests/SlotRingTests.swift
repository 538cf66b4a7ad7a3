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
}
