import Atomics
import Foundation
import RewindTestSupport
import Testing

@testable import RewindCore

@Suite(.timeLimit(.minutes(1)))
struct RecordingQueueTests {
    enum Item: Equatable, CustomStringConvertible {
        case step(Int, afterGap: Bool)
        case gap(ClosedRange<Int>)
        case control(String)

        var description: String {
            switch self {
            case let .step(step, afterGap): afterGap ? "\(step)*" : "\(step)"
            case let .gap(steps): "gap \(steps.lowerBound)...\(steps.upperBound)"
            case let .control(name): name
            }
        }
    }

    private func queue(capacity: Int, policy: OverflowPolicy = .dropWithGapMarker) -> RecordingQueue<Item> {
        RecordingQueue(capacity: capacity, policy: policy) { .gap($0) }
    }

    private func push(_ steps: ClosedRange<Int>, into queue: RecordingQueue<Item>) {
        for step in steps {
            queue.push(step: step) { slot, afterGap in slot.initialize(to: .step(step, afterGap: afterGap)) }
        }
    }

    /// What the consumer takes next, as text; something must be queued.
    private func take(from queue: RecordingQueue<Item>) -> [String] {
        var batch: [Item] = []
        queue.takeAll(into: &batch)
        return batch.map(\.description)
    }

    @Test func stepsComeOutInOrderAndAControlAfterTheStepsPushedBeforeIt() {
        let queue = queue(capacity: 8)
        push(1...3, into: queue)
        _ = queue.pushControl(.control("flush"))
        push(4...5, into: queue)
        #expect(take(from: queue) == ["1", "2", "3", "flush"])
        #expect(take(from: queue) == ["4", "5"])
        #expect(queue.isDrained)
    }

    @Test func aControlBeforeAnyStepComesFirst() {
        let queue = queue(capacity: 8)
        _ = queue.pushControl(.control("start"))
        push(1...2, into: queue)
        #expect(take(from: queue) == ["start"])
        #expect(take(from: queue) == ["1", "2"])
    }

    @Test func aBatchStopsAtTheBatchLimit() {
        let limit = RecordingQueue<Item>.batchLimit
        let queue = queue(capacity: limit + 10)
        push(1...(limit + 10), into: queue)
        #expect(take(from: queue).count == limit)
        #expect(take(from: queue) == (limit + 1...limit + 10).map { "\($0)" })
    }

    @Test func aQueueOfCapacityOneHoldsAStepAndAGapMarker() {
        let queue = queue(capacity: 1)
        push(1...2, into: queue)
        #expect(queue.dropped == 1)
        #expect(take(from: queue) == ["1"])
        // The marker takes the slot beyond the capacity: step 3 still fits.
        push(3...4, into: queue)
        #expect(queue.dropped == 2)
        #expect(take(from: queue) == ["gap 2...2", "3*"])
        push(5...5, into: queue)
        #expect(take(from: queue) == ["gap 4...4", "5*"])
    }

    @Test func stepsDroppedWhileFullBecomeOneGapBeforeTheNextStepThatFits() {
        let queue = queue(capacity: 2)
        push(1...5, into: queue)
        #expect(queue.dropped == 3)
        #expect(take(from: queue) == ["1", "2"])
        push(6...6, into: queue)
        #expect(take(from: queue) == ["gap 3...5", "6*"])
        push(7...7, into: queue)
        #expect(take(from: queue) == ["7"])
        #expect(queue.dropped == 3)
    }

    @Test func aControlMarksTheStepsDroppedBeforeIt() {
        let queue = queue(capacity: 1)
        push(1...2, into: queue)
        _ = queue.pushControl(.control("flush"))
        // One control item a batch: the marker, then the flush.
        #expect(take(from: queue) == ["1", "gap 2...2"])
        #expect(take(from: queue) == ["flush"])
        // The next step is told that a gap went before it.
        push(3...3, into: queue)
        #expect(take(from: queue) == ["3*"])
        push(4...4, into: queue)
        #expect(take(from: queue) == ["4"])
    }

    @Test func closingWhileFullMarksTheDropsAndIgnoresLaterSteps() {
        let queue = queue(capacity: 2)
        push(1...3, into: queue)
        let finish = queue.pushControl(.control("finish"), closing: true)
        push(4...6, into: queue)
        #expect(queue.dropped == 1, "steps after the end are ignored, not dropped")
        #expect(queue.pushControl(.control("flush")) == finish)
        #expect(take(from: queue) == ["1", "2", "gap 3...3"])
        #expect(take(from: queue) == ["finish"])
        #expect(queue.isDrained)
    }

    @Test func aFullQueueUnderBlockMakesTheProducerWaitForRoom() {
        let queue = queue(capacity: 2, policy: .block)
        let producer = OwnThread { push(1...50, into: queue) }
        var taken: [String] = []
        while taken.count < 50 { taken += take(from: queue) }
        producer.wait()
        #expect(taken == (1...50).map { "\($0)" })
        #expect(queue.dropped == 0)
    }

    @Test func closingReleasesAProducerWaitingForRoomAndIgnoresItsStep() {
        let queue = queue(capacity: 2, policy: .block)
        push(1...2, into: queue)
        let producer = OwnThread { push(3...3, into: queue) }
        spin { queue.sleeper.waitingProducers.load(ordering: .sequentiallyConsistent) == 1 }
        _ = queue.pushControl(.control("finish"), closing: true)
        #expect(take(from: queue) == ["1", "2", "finish"])
        producer.wait()
        #expect(queue.ring.publishedCount == 2, "step 3 came after the end")
    }

    @Test func aControlWaitsUntilTheConsumerHasDoneIt() {
        let queue = queue(capacity: 4)
        push(1...2, into: queue)
        let ticket = queue.pushControl(.control("flush"))
        let done = ManagedAtomic(false)
        let waiterReturned = ManagedAtomic(false)
        let returnedBeforeDone = ManagedAtomic(false)
        let taken = Locked<[String]>([])
        let consumer = OwnThread {
            var batch: [Item] = []
            queue.takeAll(into: &batch)
            taken.withLock { $0 = batch.map(\.description) }
            guard batch.last == .control("flush") else { return }
            // Done, and only then the ticket completed: a wait that returned before this
            // point did not wait.
            returnedBeforeDone.store(waiterReturned.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
            done.store(true, ordering: .sequentiallyConsistent)
            queue.completeTicket()
        }
        queue.waitUntilDone(ticket)
        waiterReturned.store(true, ordering: .sequentiallyConsistent)
        let doneWhenTheWaitReturned = done.load(ordering: .sequentiallyConsistent)
        #expect(doneWhenTheWaitReturned, "waitUntilDone returned before the consumer had done the control")
        consumer.wait()
        let returnedEarly = returnedBeforeDone.load(ordering: .sequentiallyConsistent)
        #expect(!returnedEarly, "waitUntilDone returned before the consumer had done the control")
        #expect(taken.withLock { $0 } == ["1", "2", "flush"])
    }

    /// A producer, a consumer and a thread sending control items, all at once: every step in
    /// order, and each control item after the steps published before it was sent.
    @Test func controlsFromAnotherThreadFollowTheStepsPublishedBeforeThem() {
        let steps = 3_000
        let flushes = 40
        for policy in [OverflowPolicy.block, .dropWithGapMarker] {
            let queue = queue(capacity: 16, policy: policy)
            let producer = OwnThread { push(1...steps, into: queue) }
            let controller = OwnThread {
                for _ in 0..<flushes {
                    // At least these steps were published before the flush was sent.
                    let published = queue.ring.publishedCount
                    queue.waitUntilDone(queue.pushControl(.control("flush after \(published)")))
                }
                producer.wait()
                queue.waitUntilDone(queue.pushControl(.control("finish"), closing: true))
            }
            var taken: [Item] = []
            var recordedSteps: [Int] = []
            // Steps and gap markers taken: at least the items the ring held when a flush came.
            var itemsTaken = 0
            while taken.last != .control("finish") {
                var batch: [Item] = []
                queue.takeAll(into: &batch)
                for item in batch {
                    taken.append(item)
                    switch item {
                    case let .step(step, _):
                        recordedSteps.append(step)
                        itemsTaken += 1
                    case let .gap(gap):
                        recordedSteps += Array(gap)
                        itemsTaken += 1
                    case let .control(name):
                        if let published = Int(name.split(separator: " ").last ?? "") {
                            #expect(itemsTaken >= published, "\(name) came after \(itemsTaken) items")
                        }
                        queue.completeTicket()
                    }
                }
            }
            controller.wait()
            #expect(recordedSteps == Array(1...steps), "every step, taken or marked, once and in order (\(policy))")
            #expect(taken.filter { if case .control = $0 { true } else { false } }.count == flushes + 1)
        }
    }
}
