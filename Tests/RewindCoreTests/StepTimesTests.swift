import Foundation
import Testing

@testable import RewindCore

/// Steps are stamped with the processor's counter on the dispatch path and given their times on
/// the recorder's thread (`StepClock`, `StepTimes`): the times must be the wall-clock times the
/// stamps were taken at.
@Suite struct StepTimesTests {
    @Test func stampsBecomeTheWallClockTimesTheyWereTakenAt() {
        var times = StepTimes(usesCounter: StepClock.usesCounter, isCustom: false)
        var taken: [(before: Date, stamp: UInt64, after: Date)] = []
        for _ in 0..<2_000 {
            let before = Date()
            let stamp = StepClock.ticks(counter: StepClock.usesCounter)
            taken.append((before, stamp, Date()))
        }
        times.refresh()
        var previous = Date.distantPast
        for (before, stamp, after) in taken {
            let time = times.date(of: stamp)
            // Within 20 µs of when it was taken, and in order (to a microsecond's rounding).
            #expect(time >= before.addingTimeInterval(-20e-6) && time <= after.addingTimeInterval(20e-6))
            #expect(time >= previous.addingTimeInterval(-1e-6))
            previous = time
        }
    }

    @Test func aSessionsOwnClockGivesTheTimeItself() {
        let times = StepTimes(usesCounter: StepClock.usesCounter, isCustom: true)
        let time = Date(timeIntervalSince1970: 1_700_000_000.123456)
        #expect(times.date(of: StepClock.stamp(of: time)) == time)
    }
}
