import Foundation
import RewindInspector
import RewindLog
import Testing

/// Following a session while it is recorded: the recording grows from inside the reader's
/// callbacks, in this thread, so that every interleaving the test claims happens for certain,
/// without waiting for anything.
@MainActor
@Suite struct FollowTests {
    /// A live session of `steps` steps, an inspector on its log and a follower that looks
    /// often (a look costs a pragma) and stops when `cancelled` says so.
    static func live(
        steps: Int, cancelled: @escaping @Sendable () -> Bool = { false }
    ) throws -> (LiveLoginSession, LogInspector, SessionSummary, LogFollower, TemporaryDirectory) {
        let folder = try TemporaryDirectory()
        let live = try LiveLoginSession(path: folder.path("live.rewind"))
        live.record(steps)
        let inspector = try LogInspector(path: live.path)
        let follower = LogFollower(reader: inspector.reader, interval: .milliseconds(1), isCancelled: cancelled)
        return (live, inspector, try inspector.session(nil), follower, folder)
    }

    @Test func everyStepIsHandedOverOnceAndInOrderWhileTheSessionGrowsAndEnds() throws {
        let (live, inspector, session, opened, folder) = try Self.live(steps: 10)
        var follower = opened
        defer { withExtendedLifetime(folder) {} }
        var steps: [Int] = [], summaries: [Int] = []
        let end = try inspector.followTimeline(of: session, from: 1, with: &follower) { page in
            steps += page.map(\.step)
            summaries.append(page.count)
            // Each page makes the recorder commit more: runs of different lengths, then the end.
            if live.steps < 1_000 {
                live.record(min(1_000 - live.steps, 7 * summaries.count))
            } else {
                #expect(throws: Never.self) { try live.end() }
            }
        }
        #expect(end == .ended)
        #expect(steps == Array(1...1_000))
        #expect(summaries.count > 10, "the steps came in many runs, as recorded: \(summaries)")
    }

    @Test func anErrorOfTheCallersBodyEndsTheFollowingAsItWas() throws {
        let (live, inspector, session, opened, folder) = try Self.live(steps: 3)
        var follower = opened
        defer { withExtendedLifetime((live, folder)) {} }
        #expect(throws: CancellationError.self) {
            try inspector.followTimeline(of: session, from: 1, with: &follower) { _ in throw CancellationError() }
        }
    }

    @Test func aCancelledFollowerStopsWaitingAfterWhatIsThere() throws {
        let (live, inspector, session, opened, folder) = try Self.live(steps: 3, cancelled: { true })
        defer { withExtendedLifetime((live, folder)) {} }
        var runs: [ClosedRange<Int>] = []
        var follower = opened
        let end = try inspector.follow(session, from: 2, with: &follower) { _, steps in
            runs.append(steps)
            return true
        }
        #expect(end == .interrupted)
        #expect(runs == [2...3])
    }

    @Test func matchesAreReportedAsTheStepsThatMakeThemAreRecorded() throws {
        let (live, inspector, session, opened, folder) = try Self.live(steps: 0)
        var follower = opened
        defer { withExtendedLifetime(folder) {} }
        live.type("a")
        live.type("x")
        let predicate = try StatePredicate(parsing: #"username == "x""#)
        var matches: [Int] = []
        let end = try inspector.followMatches(predicate, in: session, with: &follower) { match in
            matches.append(match.step)
            if matches.count < 3 {
                live.type("b")
                live.type("x")
            } else {
                #expect(throws: Never.self) { try live.end() }
            }
            return true
        }
        #expect(end == .ended)
        #expect(matches == [2, 4, 6])
    }

    @Test func aReaderThatWantsNoMoreStopsFollowing() throws {
        let (live, inspector, session, opened, folder) = try Self.live(steps: 4)
        var follower = opened
        defer { withExtendedLifetime((live, folder)) {} }
        let predicate = try StatePredicate(parsing: #"username == "u2""#)
        var matches: [Int] = []
        let end = try inspector.followMatches(predicate, in: session, with: &follower) { match in
            matches.append(match.step)
            return false
        }
        #expect(end == .stopped)
        #expect(matches == [2])
    }

    @Test func theNewestSessionIsWaitedForWhenTheLogHoldsNone() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("empty.rewind")
        let sink = try SQLiteSink(path: path)
        var cancelled = LogFollower(reader: try LogReader(path: path), interval: .milliseconds(1), isCancelled: { true })
        #expect(try cancelled.newestSession() == nil, "no session yet, and cancelled: nil")

        var follower = LogFollower(reader: try LogReader(path: path), interval: .milliseconds(1))
        let first = try LiveLoginSession(path: path, name: "first")
        try first.end()
        let second = try LiveLoginSession(path: path, name: "second")
        #expect(try follower.newestSession()?.name == "second")
        try second.end()
        try sink.close()
    }

    @Test func aFollowedStepSessionReachesStepsRecordedAfterItStarted() throws {
        let (live, inspector, session, follower, folder) = try Self.live(steps: 3)
        defer { withExtendedLifetime(folder) {} }
        var followed = StepSession(cursor: try TimeTravelCursor(inspector: inspector, session: session), follower: follower)
        var fixed = StepSession(cursor: try TimeTravelCursor(inspector: inspector, session: session))
        live.record(2)
        #expect(fixed.run("last").output.first == "#1 (live): step 3 of 3", "without a follower, the session as it was")
        #expect(followed.run("last").output.first == "#1 (live): step 5 of 5")
        #expect(try followed.catchUp() == false, "nothing new: nothing to redraw")
        live.record(1)
        #expect(try followed.catchUp() == true)
        #expect(followed.run("next").output.first == "#1 (live): step 6 of 6")
        try live.end()
    }
}
