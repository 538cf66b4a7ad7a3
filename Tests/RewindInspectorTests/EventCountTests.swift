import Foundation
import RewindCore
import RewindLog
import Testing

/// A session's event count is worked out from its first and last steps and its gaps, without
/// reading its events: it must still equal the rows the log holds.
@Suite struct EventCountTests {
    @Test func gapsInTheMiddleAndAtTheTailAreNotCounted() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("gaps.rewind")
        try HandmadeLog.withGaps(at: path)
        let log = try HandmadeLog(path: path)
        // A session whose first recorded step is 3, after a gap at its start.
        try log.session("late-start", steps: HandmadeLog.typing(3...5), gaps: [RecordingGap(steps: 1...2, reason: "the log could not be written")])
        try log.session("empty", steps: [])
        try log.close()
        let sessions = try LogReader(path: path).sessions()
        #expect(sessions.map(\.eventCount) == [6, 2, 3, 0])
        #expect(sessions.map(\.lastStep) == [9, 2, 5, 0])
    }
}
