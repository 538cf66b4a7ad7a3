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
        sleeper.pushed { $0 <= 100 }
        #expect(state(of: sleeper) == State.running)
    }

    @Test func aPushWakesANappingConsumerOnlyOnceABatchWaits() {
        let sleeper = RingSleeper(wakeThreshold: 4)
        sleeper.state.store(State.napping, ordering: .sequentiallyConsistent)
        sleeper.pushed { $0 <= 3 }
        #expect(state(of: sleeper) == State.napping, "it wakes by itself within a millisecond")
        sleeper.pushed { $0 <= 4 }
        #expect(state(of: sleeper) == State.running)
    }

    @Test func aPushWakesASleepingConsumerAtOnce() {
        let sleeper = RingSleeper(wakeThreshold: 4)
        sleeper.state.store(State.asleep, ordering: .sequentiallyConsistent)
        sleeper.pushed { $0 <= 1 }
        #expect(state(of: sleeper) == State.running)
    }

    @Test func theBacklogIsAskedOnlyWhenTheConsumerNapsAndOfTheThreshold() {
        let sleeper = RingSleeper(wakeThreshold: 4)
        var asked: [Int] = []
        func hasBacklog(_ limit: Int) -> Bool {
            asked.append(limit)
            return false
        }
        sleeper.pushed(hasBacklog: hasBacklog)
        #expect(asked == [])
        sleeper.state.store(State.napping, ordering: .sequentiallyConsistent)
        sleeper.pushed(hasBacklog: hasBacklog)
        #expect(asked == [4])
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

    @Test func aWakeEndsASleepBeforeItsLimit() {
        // A limit no wake comes near (the suite's time limit stops a hang sooner), so that a
        // sleep that times out says the wake did not end it, however loaded the machine.
        let sleeper = RingSleeper(wakeThreshold: 4, sleepLimit: 30)
        let rested = ManagedAtomic(false)
        let consumer = OwnThread {
            _ = sleeper.rest(afterNaps: RingSleeper.napsBeforeSleep) { true }
            rested.store(true, ordering: .sequentiallyConsistent)
        }
        spin { state(of: sleeper) == State.asleep }
        let restedBeforeTheWake = rested.load(ordering: .sequentiallyConsistent)
        #expect(!restedBeforeTheWake, "asleep until woken")
        sleeper.wakeInOrder()
        consumer.wait()
        let restedAfter = rested.load(ordering: .sequentiallyConsistent)
        let timedOut = sleeper.sleepsTimedOut.load(ordering: .relaxed)
        #expect(restedAfter)
        #expect(timedOut == 0, "the sleep lasted its limit: the wake did not end it")
        #expect(state(of: sleeper) == State.running)
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
