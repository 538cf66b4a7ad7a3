import Foundation
import GRDB
import RewindCore
import RewindJSON
import RewindTestSupport
import Testing

@testable import RewindLog

/// A log that stops growing mid-recording, as on a full disk: SQLite's page cap on the sink's
/// connection makes every write that needs a new page fail with SQLITE_FULL. As on a real
/// full disk, the pages the file has free (the open block's earlier versions, rewritten at
/// each commit) are used up first: the recording stops at a step a little past the cap.
@Suite struct WriteFaultTests {
    /// A state that takes about two pages per step even compressed (12,000 pseudo-random
    /// letters), so that a capped log fills at once.
    private func state(_ step: Int) -> [String] {
        var seed = UInt64(step) &* 0x9E37_79B9_7F4A_7C15
        let letters = (0..<12_000).map { _ -> UInt8 in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(ascii: "a") + UInt8((seed >> 33) % 26)
        }
        return [String(decoding: letters, as: UTF8.self), "step \(step)"]
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
        #expect(failures.count >= 2, "one report per failed write, at least one per flush that failed")
        #expect(failures.allSatisfy { $0 == "\(path): database or disk is full" }, "\(failures)")

        // Meanwhile the log holds everything up to the failure, intact, for any reader.
        let reader = try LogReader(path: path)
        let during = try reader.session(nil)
        let written = during.lastStep
        #expect((40..<80).contains(written) && during.eventCount == written, "\(written) steps written")
        #expect(try reader.state(of: during, at: written) == (try JSONValueEncoder().encode(state(written))))
        #expect(try integrityCheck(path) == ["ok"])

        // Space comes back: the next batch writes its steps and the gap marker with them.
        try sink.limitSize(toPages: nil)
        record(101...130, into: recorder)
        recorder.close()
        try sink.close()  // while `reader` still holds the log open

        let after = try LogReader(path: path)
        let session = try after.session(nil)
        #expect(session.lastStep == 130)
        #expect(session.eventCount == written + 30, "those before the failure and 30 after it")
        let gaps = try after.gaps(of: session)
        #expect(gaps.map(\.steps) == [written + 1...100], "one gap for the whole failure: \(gaps)")
        #expect(gaps.first?.reason == "the log could not be written (\(path): database or disk is full)")
        let resumed = try #require(try after.events(of: session, steps: 101...101).first)
        #expect(resumed.keyframe != nil, "the first step after a gap is a keyframe")
        for step in [1, 40, written, 101, 130] {
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
        #expect((10..<60).contains(session.lastStep), "the log ends at the last written step")
        #expect(session.eventCount == session.lastStep)
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
