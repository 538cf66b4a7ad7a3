import Foundation
import GRDB
import RewindCore
import RewindJSON
import RewindTestSupport
import Testing

@testable import RewindLog

/// A log that stops growing mid-recording, as on a full disk: SQLite's page cap on the sink's
/// connection makes every write that needs a new page fail with SQLITE_FULL.
@Suite struct WriteFaultTests {
    /// A state that takes about a page per step, so that a capped log fills at once.
    private func state(_ step: Int) -> [String] {
        [String(repeating: "\(step % 10)", count: 3_000), "step \(step)"]
    }

    private func record(_ steps: ClosedRange<Int>, into recorder: Recorder<[String], Tick>) {
        for step in steps { recorder.record(.tick, state: state(step), step: step) }
    }

    @Test func aFullDiskBecomesAGapAndRecordingResumesWhenSpaceComesBack() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("full.rewind")
        let sink = try SQLiteSink(path: path)
        let errors = Locked<[String]>([])
        var configuration = RecorderConfiguration()
        configuration.onError = { error in errors.withLock { $0.append("\(error)") } }
        let recorder = Recorder<[String], Tick>(sink: sink, session: .init(name: "full", flow: "test"), configuration: configuration)
        recorder.start(initialState: state(0))
        record(1...40, into: recorder)
        recorder.flush()

        // The disk fills: the app goes on dispatching, the writer reports and counts the loss.
        try sink.limitSize(toPages: try sink.pageCount())
        for batch in stride(from: 41, through: 100, by: 20) {
            record(batch...batch + 19, into: recorder)
            recorder.flush()
        }
        let failures = errors.withLock { $0 }
        #expect(failures.count >= 3, "one report per failed write, at least one per flush")
        #expect(failures.allSatisfy { $0 == "\(path): database or disk is full" }, "\(failures)")

        // Meanwhile the log holds everything up to the failure, intact, for any reader.
        let reader = try LogReader(path: path)
        let during = try reader.session(nil)
        #expect(during.lastStep == 40 && during.eventCount == 40)
        #expect(try reader.state(of: during, at: 40) == (try JSONValueEncoder().encode(state(40))))
        #expect(try integrityCheck(path) == ["ok"])

        // Space comes back: the next batch writes its steps and the gap marker with them.
        try sink.limitSize(toPages: nil)
        record(101...130, into: recorder)
        recorder.close()
        try sink.close()  // while `reader` still holds the log open

        let after = try LogReader(path: path)
        let session = try after.session(nil)
        #expect(session.lastStep == 130)
        #expect(session.eventCount == 70, "40 before the failure and 30 after it")
        let gaps = try after.gaps(of: session)
        #expect(gaps.map(\.steps) == [41...100], "one gap for the whole failure: \(gaps)")
        #expect(gaps.first?.reason == "the log could not be written (\(path): database or disk is full)")
        let resumed = try #require(try after.events(of: session, steps: 101...101).first)
        #expect(resumed.keyframe != nil, "the first step after a gap is a keyframe")
        for step in [1, 40, 101, 130] {
            #expect(try after.state(of: session, at: step) == (try JSONValueEncoder().encode(state(step))))
        }
        #expect(session.endedAt != nil)
        #expect(try integrityCheck(path) == ["ok"])
    }

    @Test func aDiskThatStaysFullLosesTheGapMarkerButNotTheLog() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("stays-full.rewind")
        let sink = try SQLiteSink(path: path)
        let failures = Locked(0)
        var configuration = RecorderConfiguration()
        configuration.onError = { _ in failures.withLock { $0 += 1 } }
        let recorder = Recorder<[String], Tick>(sink: sink, session: .init(name: "stays-full", flow: "test"), configuration: configuration)
        recorder.start(initialState: state(0))
        record(1...10, into: recorder)
        recorder.flush()
        try sink.limitSize(toPages: try sink.pageCount())
        record(11...60, into: recorder)
        recorder.close()
        try sink.close()

        #expect(failures.withLock { $0 } >= 1)
        let session = try LogReader(path: path).session(nil)
        #expect(session.lastStep == 10 && session.eventCount == 10, "the log ends at the last written step")
        #expect(try integrityCheck(path) == ["ok"])
    }

    private func integrityCheck(_ path: String) throws -> [String] {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: path, configuration: configuration).read { db in
            try String.fetchAll(db, sql: "PRAGMA integrity_check")
        }
    }
}
