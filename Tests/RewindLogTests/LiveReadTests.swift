import Atomics
import Foundation
import PhotoApp
import RewindCore
import RewindJSON
import RewindTestSupport
import Testing

@testable import RewindLog

/// `tools/concurrency-test` in process and in a few seconds: readers that open the log again
/// and again while a session records at full speed, and while the sink closes.
@MainActor
@Suite struct LiveReadTests {
    /// What the readers saw, from their threads.
    final class Observations: Sendable {
        let recording = ManagedAtomic(true)
        let reads = ManagedAtomic(0)
        let maxWAL = ManagedAtomic(0)
    }

    /// Opens the log anew, checks it has no gap, and rebuilds a random step; until told to stop.
    nonisolated private static func read(_ path: String, seed: UInt64, into seen: Observations) throws {
        var generator = SeededGenerator(seed: seed)
        var lastStep = 0
        while seen.recording.load(ordering: .relaxed) {
            let reader = try LogReader(path: path)
            guard let session = try reader.sessions().first else { continue }
            #expect(session.eventCount == session.lastStep, "no gap")
            #expect(session.lastStep >= lastStep, "the prefix only grows")
            lastStep = session.lastStep
            if session.lastStep > 0 {
                let step = Int.random(in: 1...session.lastStep, using: &generator)
                let event = try reader.events(of: session, steps: step...step).first
                #expect(try reader.state(of: session, at: step).digest == event?.digest)
            }
            let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
            seen.maxWAL.max(wal)
            seen.reads.wrappingIncrement(ordering: .relaxed)
        }
    }

    @Test func readersDuringAFastRecordingAndItsCloseMeetNoBusyErrorAndABoundedWAL() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("live.rewind")
        let sink = try SQLiteSink(path: path)
        let seen = Observations()
        // Threads of their own: a blocking loop on the cooperative pool (two threads on two
        // cores) would starve the effects the session awaits.
        let done = DispatchGroup()
        let failures = Locked<[String]>([])
        for seed in 1...2 {
            done.enter()
            Thread {
                do { try Self.read(path, seed: UInt64(seed), into: seen) } catch { failures.withLock { $0.append("\(error)") } }
                done.leave()
            }.start()
        }
        await RandomSession(flow: "login", seed: 9, steps: 10_000)!.run(host: FlushEveryHost(sink: sink, interval: 100), start: .testEpoch)
        // The readers are still at work: closing must neither fail as busy nor wait for them.
        try sink.close()
        seen.recording.store(false, ordering: .relaxed)
        done.wait()
        #expect(failures.withLock { $0 }.isEmpty, "no reader failed, busy or otherwise")

        #expect(seen.reads.load(ordering: .relaxed) > 0)
        #expect(seen.maxWAL.load(ordering: .relaxed) < 64 << 20, "autocheckpoints keep the WAL bounded")
        let session = try LogReader(path: path).session(nil)
        #expect(session.eventCount == session.lastStep && session.lastStep >= 10_000)
    }
}

extension LiveReadTests {
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

extension ManagedAtomic<Int> {
    /// Raises the value to `value` when it is larger.
    func max(_ value: Int) {
        var current = load(ordering: .relaxed)
        while value > current {
            let (exchanged, original) = compareExchange(expected: current, desired: value, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }
}
