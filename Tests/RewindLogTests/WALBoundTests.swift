import Atomics
import Foundation
import PhotoApp
import RewindCore
import RewindJSON
import RewindTestSupport
import Testing

@testable import RewindLog

/// The `-wal`'s bound under readers that overlap. A suite of its own, outside the thread
/// sanitizer's run in `.ci/run`: there every checkpoint waits for a whole-session walk ten
/// times slower, and the suite ran past 25 minutes.
@MainActor
@Suite struct WALBoundTests {
    typealias Observations = LiveReadTests.Observations

    /// Reads the whole session in one transaction, again and again, until told to stop: with
    /// two such readers, staggered, some reader always holds a snapshot in the WAL.
    nonisolated private static func walkWholeSession(_ path: String, into seen: Observations) throws {
        while seen.recording.load(ordering: .relaxed) {
            let reader = try LogReader(path: path)
            guard let session = try reader.sessions().first, session.lastStep > 0 else { continue }
            try reader.walkStates(session, steps: 1...session.lastStep, parsingActions: false, readingAhead: false) { _, _ in }
            seen.reads.wrappingIncrement(ordering: .relaxed)
        }
    }

    /// Readers that overlap kept SQLite's automatic checkpoint from ever letting the WAL start
    /// over (202 MiB in 30 s). The sink empties it itself past its limit, waiting for them: the
    /// `-wal`, sampled after every commit, stays within the limit and one commit's pages.
    @Test func overlappingReadersDoNotLetTheWALGrowPastItsLimit() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("overlap.rewind")
        let limit = 128 << 10
        let sink = try SQLiteSink(path: path, walLimit: limit)
        let seen = Observations()
        let done = DispatchGroup()
        let failures = Locked<[String]>([])
        for _ in 1...2 {
            done.enter()
            Thread {
                do { try Self.walkWholeSession(path, into: seen) } catch { failures.withLock { $0.append("\(error)") } }
                done.leave()
            }.start()
        }
        // The login flow, flushed every 10 steps: many small commits, states cheap to walk
        // (the app flow's took 6 minutes under the thread sanitizer).
        let host = FlushEveryHost(sink: sink, interval: 10) {
            let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
            seen.maxWAL.max(wal)
        }
        await RandomSession(flow: "login", seed: 4, steps: 1_000)!.run(host: host, start: .testEpoch)
        seen.recording.store(false, ordering: .relaxed)
        done.wait()
        try sink.close()
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(seen.reads.load(ordering: .relaxed) > 0)
        #expect(seen.maxWAL.load(ordering: .relaxed) <= 2 * limit, "max WAL \(seen.maxWAL.load(ordering: .relaxed)) bytes")
    }
}
