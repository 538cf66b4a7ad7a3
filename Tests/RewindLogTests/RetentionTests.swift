import Foundation
import GRDB
import PhotoApp
import RewindCore
import RewindJSON
import RewindTestSupport
import Testing

@testable import RewindLog

/// A log that keeps only the end of each session (`LogRetention`): what leaves, what is
/// marked, and that what is kept reads and rebuilds as the recording had it.
@MainActor
@Suite struct RetentionTests {
    typealias Block = LogRetention.Block

    /// Blocks of 10 steps from step 1, every one a keyframe but those listed, a second apart,
    /// each 100 bytes stored.
    static func blocks(_ count: Int, withoutKeyframe: Set<Int> = []) -> [Block] {
        (0..<count).map { index in
            Block(
                first: index * 10 + 1, last: index * 10 + 10, keyframe: !withoutKeyframe.contains(index * 10 + 1), lastTime: Double(index * 10 + 10),
                bytes: 100)
        }
    }

    @Test func stepsKeepAtLeastTheirCountFromTheKeyframeBlockAtOrBeforeIt() {
        let blocks = Self.blocks(10)  // steps 1-100
        #expect(LogRetention.firstKept(of: blocks, keeping: .lastSteps(25)) == 71)  // 71-100: the 25th step back is 76
        #expect(LogRetention.firstKept(of: blocks, keeping: .lastSteps(30)) == 71)
        #expect(LogRetention.firstKept(of: blocks, keeping: .lastSteps(31)) == 61)
        #expect(LogRetention.firstKept(of: blocks, keeping: .lastSteps(1)) == 91)
        #expect(LogRetention.firstKept(of: blocks, keeping: .lastSteps(91)) == nil, "the first block holds step 10, which is kept")
        #expect(LogRetention.firstKept(of: blocks, keeping: .lastSteps(1_000)) == nil)
    }

    @Test func aBlockWithoutAKeyframeIsNeverTheFirstKept() {
        // Blocks 71-80 and 81-90 start without a keyframe (a rolled-back commit's next block).
        let blocks = Self.blocks(10, withoutKeyframe: [71, 81])
        #expect(LogRetention.firstKept(of: blocks, keeping: .lastSteps(25)) == 61)
        #expect(LogRetention.firstKept(of: blocks, keeping: .lastSteps(5)) == 91)
    }

    @Test func minutesKeepEveryStepOfTheirSpanOfTheSessionsTime() {
        let blocks = Self.blocks(10)  // block k ends at second 10k
        // The last 25 s from second 100: from 75, in block 71-80.
        #expect(LogRetention.firstKept(of: blocks, keeping: LogRetention(seconds: 25)) == 71)
        #expect(LogRetention.firstKept(of: blocks, keeping: LogRetention(seconds: 29)) == 71)
        #expect(LogRetention.firstKept(of: blocks, keeping: LogRetention(seconds: 30)) == 61, "block 61-70 ends at second 70, inside")
        #expect(LogRetention.firstKept(of: blocks, keeping: .lastMinutes(1)) == 31)
        #expect(LogRetention.firstKept(of: blocks, keeping: .lastMinutes(2)) == nil)
    }

    @Test func bytesKeepTheNewestBlocksThatFitAndAtLeastTheNewestKeyframeRun() {
        let blocks = Self.blocks(10, withoutKeyframe: [91])
        #expect(LogRetention.firstKept(of: blocks, keeping: .lastBytes(300)) == 71)
        #expect(LogRetention.firstKept(of: blocks, keeping: .lastBytes(299)) == 81, "81-100 is the newest run from a keyframe")
        #expect(LogRetention.firstKept(of: blocks, keeping: .lastBytes(50)) == 81)
        #expect(LogRetention.firstKept(of: blocks, keeping: .lastBytes(1_000)) == nil)
    }

    @Test func severalLimitsKeepOnlyWhatEachKeeps() {
        let blocks = Self.blocks(10)
        #expect(LogRetention.firstKept(of: blocks, keeping: LogRetention(steps: 50, bytes: 300)) == 71)
        #expect(LogRetention.firstKept(of: blocks, keeping: LogRetention(steps: 20, seconds: 45)) == 81)
        #expect(LogRetention.firstKept(of: blocks, keeping: .everything) == nil)
        #expect(LogRetention.firstKept(of: Array(blocks.prefix(1)), keeping: .lastSteps(1)) == nil, "one block: nothing leaves")
    }

    /// A session typed a step at a time (step N types `uN`), committed every 30 steps: after
    /// each commit the log holds one window from a keyframe block, its front marked not kept
    /// by a single gap, and each kept step's state as recorded.
    @Test func theWindowMovesWithEveryCommitAndWhatItKeepsReadsBack() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("flight.rewind")
        let live = try LiveLoginSession(path: path, retention: .lastSteps(100), keyframeInterval: 64)
        var trimmed = 0
        for _ in 0..<40 {
            live.record(30)
            let reader = try LogReader(path: path)
            let session = try reader.session(nil)
            #expect(session.lastStep == live.steps)
            let kept = session.eventCount
            #expect(kept >= min(100, live.steps) && kept <= 100 + 64, "\(kept) kept of \(live.steps)")
            #expect(kept == session.lastStep - (session.notKept?.count ?? 0), "one contiguous window")
            let gaps = try reader.gaps(of: session)
            if let notKept = session.notKept {
                trimmed += 1
                #expect(gaps == [LoggedGap(steps: notKept, reason: RecordingGap.notKeptReason)])
                let first = try reader.events(of: session, steps: session.firstKeptStep...session.firstKeptStep)
                #expect(first.first?.keyframe != nil, "the first kept step stores the whole state")
            } else {
                #expect(gaps.isEmpty)
            }
            #expect(try reader.state(of: session, at: live.steps)["username"] == .string("u\(live.steps)"))
        }
        try live.end()
        #expect(trimmed >= 35)

        let reader = try LogReader(path: path)
        let session = try reader.session(nil)
        #expect(session.notKeptText == "steps 1-1,087 not kept")
        var walked: [Int] = []
        try reader.walkStates(session, steps: 1...session.lastStep) { event, state in
            #expect(state["username"] == .string("u\(event.step)"))
            walked.append(event.step)
        }
        #expect(walked == Array(1_088...1_200))
        let error = try #require(throws: LogError.self) { try reader.state(of: session, at: 5) }
        #expect(error.kind == .noSuchStep)
        #expect(error.message == "step 5 of session #1 (live) is not kept (steps 1-1,087 not kept; the first kept step is 1088)")
    }

    /// A log capped in size loses whole sessions, oldest first, in the commit that takes it past
    /// the cap; never the session being recorded, even when that one alone is past it.
    @Test func aLogPastItsCapLosesItsOldestSessionsNeverTheOpenOne() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("capped.rewind")
        func usedBytes() throws -> Int {
            try DatabaseQueue(path: path).read { db in
                let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
                let free = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
                return (pages - free) * (try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0)
            }
        }
        func names() throws -> [String] { try LogReader(path: path).sessions().compactMap(\.name) }
        for name in ["one", "two", "three"] {
            let live = try LiveLoginSession(path: path, name: name)
            live.record(3_000)
            try live.end()
        }
        let cap = try usedBytes() * 3 / 4
        let open = try LiveLoginSession(path: path, name: "open", retention: .logUnder(cap))
        open.record(3_000)
        let kept = try names()
        #expect(kept.last == "open" && !kept.contains("one") && ["one", "two", "three", "open"].reversed().starts(with: kept.reversed()), "\(kept)")
        #expect(try usedBytes() <= cap)
        try open.end()
        #expect(try LogReader(path: path).sessions().allSatisfy { $0.damage == nil })

        let tiny = try LiveLoginSession(path: path, name: "alone", retention: .logUnder(1))
        tiny.record(10)
        #expect(try names() == ["alone"], "every other session leaves; the open one stays")
        try tiny.end()
    }

    /// The last minute of a random photo session, by the times of its steps: the step before
    /// the first kept one is older than the minute, and the block from the first kept step
    /// holds a step inside it (not one block more is kept than needed).
    @Test func aMinuteOfASessionsTimeIsKeptAndNoBlockMore() async throws {
        let folder = try TemporaryDirectory()
        let whole = try SQLiteSink(path: folder.path("whole.rewind"))
        await RandomSession(flow: "photos", seed: 7, steps: 3_000)!.run(host: RecordingTestHost(sink: whole), start: .testEpoch)
        try whole.close()
        let flight = try SQLiteSink(path: folder.path("flight.rewind"), retention: .lastMinutes(1))
        await RandomSession(flow: "photos", seed: 7, steps: 3_000)!.run(host: RecordingTestHost(sink: flight), start: .testEpoch)
        try flight.close()

        let all = try LogReader(path: folder.path("whole.rewind"))
        let allSession = try all.session(nil)
        let times = try all.events(of: allSession, steps: 1...allSession.lastStep).map(\.time)
        let reader = try LogReader(path: folder.path("flight.rewind"))
        let session = try reader.session(nil)
        let first = try #require(session.notKept).upperBound + 1
        let cutoff = try #require(times.last).addingTimeInterval(-60)
        #expect(times[first - 2] < cutoff, "step \(first - 1), not kept, is older than the minute")
        let nextKeyframe = try #require(try reader.keyframeSteps(of: session, in: (first + 1)...session.lastStep).first)
        #expect(times[nextKeyframe - 2] >= cutoff, "the block from step \(first) holds a step of the minute")
        let kept = try reader.events(of: session, steps: first...session.lastStep)
        #expect(kept.map(\.time) == Array(times[(first - 1)...]))
        #expect(try reader.state(of: session, at: session.lastStep) == (try all.state(of: allSession, at: allSession.lastStep)))
    }
}
