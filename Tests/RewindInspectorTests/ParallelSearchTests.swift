import Foundation
import RewindCore
import RewindJSON
import RewindLog
import Testing

@testable import RewindInspector

/// A long search runs on every core in parts cut at keyframes; what it finds, and when it
/// stops, must be what the search in order finds.
@Suite struct ParallelSearchTests {
    let folder: TemporaryDirectory
    let path: String
    let inspector: LogInspector
    let session: SessionSummary

    /// 400 steps typing `u1`, `u2`, … with a keyframe every 16 steps and two gaps, one across
    /// the boundary of two parts.
    init() throws {
        folder = try TemporaryDirectory()
        path = folder.path("parts.rewind")
        let log = try HandmadeLog(path: path)
        let gaps = [
            RecordingGap(steps: 60...70, reason: "the log could not be written"), RecordingGap(steps: 200...200, reason: "the log could not be written"),
        ]
        let steps = (1...400).filter { step in !gaps.contains { $0.steps.contains(step) } }.map { step in
            HandmadeLog.Step(
                step: step, state: HandmadeLog.login("u\(step)", password: 0), action: HandmadeLog.typed("u\(step)"), keyframe: step % 16 == 0 ? true : nil)
        }
        try log.session("parts", steps: steps, gaps: gaps)
        try log.close()
        inspector = try LogInspector(path: path)
        session = try inspector.session(nil)
    }

    func search(_ predicate: String, partLength: Int = 40) throws -> ParallelSearch {
        var search = ParallelSearch(reader: inspector.reader, session: session, predicate: try StatePredicate(parsing: predicate))
        search.firstPartLength = 10
        search.partLength = partLength
        search.workers = 3
        return search
    }

    @Test func partsStartAtKeyframesAndCoverEveryStep() throws {
        let parts = try search("username == null").parts(of: 1...400)
        #expect(parts.first == 1...15)
        #expect(parts.dropFirst().allSatisfy { $0.lowerBound % 16 == 0 || $0.lowerBound == 71 || $0.lowerBound == 201 })
        #expect(parts.map(\.count).reduce(0, +) == 400)
        #expect(zip(parts, parts.dropFirst()).allSatisfy { $0.upperBound + 1 == $1.lowerBound })
    }

    @Test(arguments: [1, 7, 40, 1_000])
    func findsWhatTheSearchInOrderFinds(partLength: Int) throws {
        let predicate = #"username contains "1" or username == "u71" or username == "u201""#
        var parallel: [StateMatch] = []
        #expect(
            try search(predicate, partLength: partLength).run(1...400) {
                parallel.append($0)
                return true
            })
        var inOrder: [StateMatch] = []
        try inspector.reader.walkStates(session, steps: 1...400) { event, state in
            if try StatePredicate(parsing: predicate).matches(state) {
                inOrder.append(StateMatch(session: session, step: event.step, origin: event.origin, action: event.actionName))
            }
        }
        #expect(parallel.count == 156)
        #expect(parallel == inOrder)
    }

    @Test func stopsWhenTheCallerHasWhatItWants() throws {
        var found: [Int] = []
        let wantsMore = try search(#"username != null"#, partLength: 7).run(1...400) { match in
            found.append(match.step)
            return found.count < 50
        }
        #expect(!wantsMore)
        #expect(found == Array(1...50))
    }

    @Test func aDamagedBlockIsReportedAfterTheMatchesBeforeIt() throws {
        // The block of steps 288 through 303 (a keyframe every 16 steps starts a block).
        try BlockSurgery(path: path).execute("UPDATE event_block SET checksum = checksum + 1 WHERE first_step = 288")
        var found: [Int] = []
        #expect {
            _ = try search(#"username != null"#, partLength: 7).run(1...400) { match in
                found.append(match.step)
                return true
            }
        } throws: { error in
            "\(error)".hasSuffix("step 288 of session #1 (parts): its stored block (steps 288 through 303) does not match its checksum")
        }
        #expect(found.last == 287)
    }
}
