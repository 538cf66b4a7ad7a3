import Foundation
import RewindCore
import Testing

@Suite struct SimulatedClockTests {
    @Test func movesOnlyWhenAdvanced() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let clock = SimulatedClock(start: start)
        #expect(clock.now == start)
        clock.advance(by: .milliseconds(1_500))
        #expect(clock.now == start.addingTimeInterval(1.5))
        #expect(clock.elapsedTime == .milliseconds(1_500))
    }
}
