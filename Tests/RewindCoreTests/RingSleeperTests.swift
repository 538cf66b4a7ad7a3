import Atomics
import Foundation
import Testing

@testable import RewindCore

@Suite(.timeLimit(.minutes(1)))
struct RingSleeperTests {
    typealias State = RingSleeper.State

    private func state(of sleeper: RingSleeper) -> Int {
        sleeper.state.load(ordering: .sequentiallyConsistent)
    }

    @Test func aPushLeavesARunningConsumerAlone() {
        let sleeper = RingSleeper(wakeThreshold: 4)
        sleeper.pushed(backlog: 100)
        #expect(state(of: sleeper) == State.running)
    }

    @Test func aPushWakesANappingConsumerOnlyOnceABatchWaits() {
        let sleeper = RingSleeper(wakeThreshold: 4)
        sleeper.state.store(State.napping, ordering: .sequentiallyConsistent)
        sleeper.pushed(backlog: 3)
        #expect(state(of: sleeper) == State.napping, "it wakes by itself within a millisecond")
        sleeper.pushed(backlog: 4)
        #expect(state(of: sleeper) == State.running)
    }

    @Test func aPushWakesASleepingConsumerAtOnce() {
        let sleeper = RingSleeper(wakeThreshold: 4)
        sleeper.state.store(State.asleep, ordering: .sequentiallyConsistent)
        sleeper.pushed(backlog: 1)
        #expect(state(of: sleeper) == State.running)
    }

    @Test func theBacklogIsReadOnlyWhenTheConsumerRests() {
        let sleeper = RingSleeper(wakeThreshold: 4)
        var reads = 0
        func backlog() -> Int {
            reads += 1
            return 1
        }
        sleeper.pushed(backlog: backlog())
        #expect(reads == 0)
        sleeper.state.store(State.napping, ordering: .sequentiallyConsistent)
        sleeper.pushed(backlog: backlog())
        #expect(reads == 1)
    }

    @Test func theConsumerNapsThenSleepsAndRunsWhenItComesBack() {
        let sleeper = RingSleeper(wakeThreshold: 4)
        var seen: [Int] = []
        let napped = sleeper.rest(afterNaps: 0) {
            seen.append(state(of: sleeper))
            return true
        }
        let slept = sleeper.rest(afterNaps: RingSleeper.napsBeforeSleep) {
            seen.append(state(of: sleeper))
            // Something came meanwhile: no wait.
            return false
        }
        #expect(seen == [State.napping, State.asleep])
        #expect(napped && !slept)
        #expect(state(of: sleeper) == State.running)
    }

    @Test func aConsumerThatFindsWorkDoesNotCountANap() {
        let sleeper = RingSleeper(wakeThreshold: 4)
        #expect(!sleeper.rest(afterNaps: 0) { false })
    }

    @Test func aWakeEndsASleepBeforeItsSecond() {
        let sleeper = RingSleeper(wakeThreshold: 4)
        let restedMilliseconds = ManagedAtomic(0)
        let consumer = OwnThread {
            let start = Date()
            _ = sleeper.rest(afterNaps: RingSleeper.napsBeforeSleep) { true }
            restedMilliseconds.store(Int(Date().timeIntervalSince(start) * 1_000), ordering: .relaxed)
        }
        spin { state(of: sleeper) == State.asleep }
        sleeper.wakeInOrder()
        consumer.wait()
        // Unwoken, it would sleep a full second.
        #expect(restedMilliseconds.load(ordering: .relaxed) < 900)
    }

    @Test func aProducerWaitsForRoomUntilTheConsumerMakesSome() {
        let sleeper = RingSleeper(wakeThreshold: 4)
        let room = ManagedAtomic(false)
        let checks = ManagedAtomic(0)
        let producer = OwnThread {
            sleeper.waitForRoom {
                checks.wrappingIncrement(ordering: .relaxed)
                return room.load(ordering: .sequentiallyConsistent)
            }
        }
        spin { sleeper.waitingProducers.load(ordering: .sequentiallyConsistent) == 1 && checks.load(ordering: .relaxed) > 0 }
        room.store(true, ordering: .sequentiallyConsistent)
        sleeper.madeRoom()
        producer.wait()
        #expect(sleeper.waitingProducers.load(ordering: .sequentiallyConsistent) == 0)
    }
}
