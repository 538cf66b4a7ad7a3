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
