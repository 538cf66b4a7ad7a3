import Foundation
import Testing

@testable import RewindCore

@Suite(.timeLimit(.minutes(1)))
struct WriterChannelTests {
    @Test func batchesArriveWholeAndInOrder() {
        let channel = WriterChannel<Int>(limit: 100)
        var items = [1, 2]
        channel.send(&items)
        #expect(items.isEmpty)
        items = [3]
        channel.send(&items)
        // An empty batch is not sent.
        channel.send(&items)
        var batches: [[Int]] = []
        channel.receiveAll(into: &batches)
        #expect(batches == [[1, 2], [3]])
    }

    @Test func theSenderGetsBackTheBufferOfABatchWritten() {
        let channel = WriterChannel<Int>(limit: 100)
        var items = Array(0..<64)
        channel.send(&items)
        var batches: [[Int]] = []
        channel.receiveAll(into: &batches)
        let written = batches[0].withUnsafeBufferPointer { $0.baseAddress }
        // Nothing written yet: the sender gets a buffer of its own, as large as the batch.
        items = [64]
        channel.send(&items)
        #expect(items.isEmpty && items.capacity >= 1)
        // Handing the first batch back; the next send reuses its buffer, emptied.
        channel.receiveAll(into: &batches)
        #expect(batches == [[64]])
        items = [65]
        channel.send(&items)
        #expect(items.isEmpty && items.capacity >= 64)
        #expect(items.withUnsafeBufferPointer { $0.baseAddress } == written)
    }

    /// An element that notes the thread it is released on.
    final class Tracked: Sendable {
        let releases: LockedValue<[ObjectIdentifier]>
        init(_ releases: LockedValue<[ObjectIdentifier]>) { self.releases = releases }
        deinit {
            let thread = ObjectIdentifier(Thread.current)
            releases.withLock { $0.append(thread) }
        }
    }

    @Test func elementsAreReleasedByTheSenderAndTheSenderWaitsWhileTheLimitIsPending() {
        let channel = WriterChannel<Tracked?>(limit: 1)
        let releases = LockedValue<[ObjectIdentifier]>([])
        let receivedCounts = LockedValue<[Int]>([])
        let senderThread = LockedValue<ObjectIdentifier?>(nil)
        let receiver = OwnThread {
            var batches: [[Tracked?]] = []
            while true {
                channel.receiveAll(into: &batches)
                receivedCounts.withLock { $0.append(batches.count) }
                // A batch holding nil ends the test.
                if batches.contains(where: { $0.contains { $0 == nil } }) { return }
            }
        }
        let sender = OwnThread {
            for _ in 0..<50 {
                var items: [Tracked?] = [Tracked(releases), Tracked(releases)]
                channel.send(&items)
            }
            var end: [Tracked?] = [nil]
            channel.send(&end)
            receiver.wait()
            // The last batches written come back with the next send.
            var last: [Tracked?] = [nil]
            channel.send(&last)
            senderThread.withLock { $0 = ObjectIdentifier(Thread.current) }
        }
        sender.wait()
        let sendingThread = senderThread.withLock { $0 }
        #expect(releases.withLock { $0 } == Array(repeating: sendingThread, count: 100))
        // At most `limit` items pending: each receive found one batch.
        #expect(receivedCounts.withLock { $0 } == Array(repeating: 1, count: 51))
    }
}
