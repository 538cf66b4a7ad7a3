import Foundation
import RewindTestSupport
import Testing

@testable import RewindCore

/// The ring under `.dropWithGapMarker` with a writer that takes items at random moments: every
/// step comes out exactly once, pushed or inside a gap marker, in order.
@Suite struct RecordingQueueDropTests {
    enum Item: Equatable {
        case step(Int)
        case gap(ClosedRange<Int>)
        case end
    }

    /// The steps the writer thread saw, gaps expanded, in the order it took them.
    private static func drain(_ queue: RecordingQueue<Item>, into seen: Locked<[Int]>, done: DispatchSemaphore) {
        var batch: [Item] = []
        var generator = SystemRandomNumberGenerator()
        var steps: [Int] = []
        reading: while true {
            queue.takeAll(into: &batch)
            for item in batch {
                switch item {
                case .step(let step): steps.append(step)
                case .gap(let range): steps.append(contentsOf: range)
                case .end: break reading
                }
            }
            // A writer that falls behind now and then, so the ring fills and drains.
            if Int.random(in: 0..<4, using: &generator) == 0 {
                for _ in 0..<Int.random(in: 0..<200, using: &generator) { _ = generator.next() }
            }
        }
        seen.withLock { $0 = steps }
        done.signal()
    }

    /// A step pushed while steps dropped before it still wait for their marker once went into
    /// the ring when the writer made room just then; a later drop then stretched the waiting gap
    /// over it, so it was both stored and marked missing.
    @Test(arguments: [1, 2, 8]) func everyStepComesOutOnceInOrder(capacity: Int) {
        let queue = RecordingQueue<Item>(capacity: capacity, policy: .dropWithGapMarker) { .gap($0) }
        let seen = Locked<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        Thread { Self.drain(queue, into: seen, done: done) }.start()
        let last = 200_000
        for step in 1...last {
            queue.push(step: step) { slot, _ in slot.initialize(to: .step(step)) }
        }
        _ = queue.pushControl(.end, closing: true)
        done.wait()
        let steps = seen.withLock { $0 }
        #expect(steps.count == last, "each step once")
        #expect(steps == Array(1...last), "in order")
        #expect(queue.dropped > 0, "the ring filled: drops were tried")
    }
}
