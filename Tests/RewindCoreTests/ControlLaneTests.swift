import Atomics
import Foundation
import Testing

@testable import RewindCore

@Suite(.timeLimit(.minutes(1)))
struct ControlLaneTests {
    /// Every entry, first to last, with its cut.
    private func drain(_ lane: ControlLane<String>) -> [String] {
        var entries: [String] = []
        while let cut = lane.firstCut { entries.append("\(lane.removeFirst())@\(cut)") }
        return entries
    }

    @Test func itemsComeInTheOrderQueuedEachWithItsCut() {
        let lane = ControlLane<String>()
        #expect(lane.isEmpty && lane.firstCut == nil)
        #expect(lane.enqueue("start", cut: { 0 }) == 1)
        #expect(lane.enqueue("flush", cut: { 3 }) == 2)
        #expect(!lane.isEmpty)
        #expect(drain(lane) == ["start@0", "flush@3"])
        #expect(lane.isEmpty)
    }

    @Test func anEntryMadeFirstGoesBeforeTheItemWithoutATicket() {
        let lane = ControlLane<String>()
        #expect(lane.enqueue("flush", after: { ("gap", 2) }, cut: { 3 }) == 1)
        #expect(lane.enqueue("flush", cut: { 4 }) == 2)
        #expect(drain(lane) == ["gap@2", "flush@3", "flush@4"])
    }

    @Test func afterTheClosingItemItemsAreIgnoredAndGetItsTicket() {
        let lane = ControlLane<String>()
        _ = lane.enqueue("start", cut: { 0 })
        #expect(lane.enqueue("finish", closing: true, cut: { 5 }) == 2)
        var calls = 0
        func called<T>(_ value: T) -> T {
            calls += 1
            return value
        }
        let late = lane.enqueue("flush", after: { called(("gap", 5)) }, cut: { called(6) })
        #expect(late == 2)
        #expect(calls == 0)
        #expect(drain(lane) == ["start@0", "finish@5"])
    }

    @Test func aCallerWaitsUntilItsTicketIsDone() {
        let lane = ControlLane<String>()
        let first = lane.enqueue("start", cut: { 0 })
        let second = lane.enqueue("flush", cut: { 0 })
        let completed = ManagedAtomic(0)
        let consumer = OwnThread {
            for _ in 0..<2 {
                _ = lane.removeFirst()
                completed.wrappingIncrement(ordering: .sequentiallyConsistent)
                lane.complete()
            }
        }
        lane.waitUntilDone(second)
        #expect(completed.load(ordering: .sequentiallyConsistent) == 2)
        lane.waitUntilDone(first)
        consumer.wait()
    }

    @Test func itemsFromManyThreadsGoInOrderOfTheirCuts() {
        let lane = ControlLane<String>()
        let counter = ManagedAtomic(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<250 {
                _ = lane.enqueue("\(thread).\(index)", cut: { counter.wrappingIncrementThenLoad(ordering: .relaxed) })
            }
        }
        var cuts: [Int] = []
        while let cut = lane.firstCut {
            cuts.append(cut)
            _ = lane.removeFirst()
        }
        #expect(cuts == Array(1...1_000))
    }
}
