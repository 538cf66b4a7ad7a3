import Atomics
import Foundation
import PhotoApp
import RewindCore
import RewindJSON
import RewindTestSupport
import Testing

@testable import RewindLog

@MainActor
@Suite struct ConcurrentReadTests {
    /// What the reader saw, from its thread.
    final class Reading: Sendable {
        let recording = ManagedAtomic(true)
        let reads = ManagedAtomic(0)
        let lastSeen = ManagedAtomic(0)
        let finished = DispatchSemaphore(value: 0)
    }

    /// Reads the log on a thread of its own while the main actor records into it.
    ///
    /// Not a task: its loop never suspends, so on the cooperative pool (two threads on two
    /// cores) it would hold one thread until the recording ends, and the recording, on the main
    /// actor, would wait for a thread whenever another test blocked the other one.
    @Test func aReaderDuringRecordingSeesAConsistentPrefix() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("live.rewind")
        let sink = try SQLiteSink(path: path)
        let host = FlushEveryHost(sink: sink, interval: 50)
        let reading = Reading()
        let failures = Locked<[String]>([])
        Thread {
            defer { reading.finished.signal() }
            do {
                // At least one read, also when the recording ends before the first.
                while reading.recording.load(ordering: .relaxed) || reading.reads.load(ordering: .relaxed) == 0 {
                    guard FileManager.default.fileExists(atPath: path),
                        let reader = try? LogReader(path: path), let session = try reader.sessions().first
                    else { continue }
                    let lastSeen = reading.lastSeen.load(ordering: .relaxed)
                    #expect(session.lastStep >= lastSeen, "the prefix only grows")
                    #expect(session.eventCount == session.lastStep, "no gaps")
                    reading.lastSeen.store(session.lastStep, ordering: .relaxed)
                    if session.lastStep > 0 {
                        let events = try reader.events(of: session, steps: session.lastStep...session.lastStep)
                        #expect(try reader.state(of: session, at: session.lastStep).digest == events.first?.digest)
                    }
                    reading.reads.wrappingIncrement(ordering: .relaxed)
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }.start()
        await RandomSession(flow: "login", seed: 5, steps: 5_000)!.run(host: host, start: .testEpoch)
        reading.recording.store(false, ordering: .relaxed)
        reading.finished.wait()
        try sink.close()
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(reading.reads.load(ordering: .relaxed) > 0)
        #expect(reading.lastSeen.load(ordering: .relaxed) <= (try LogReader(path: path).session(nil).lastStep))
    }
}

/// Records with a flush every `interval` steps, so readers see the log grow.
@MainActor
final class FlushEveryHost: SessionHost {
    let sink: any RecordingSink
    let interval: Int
    /// Called after each flush, once it returned.
    let afterFlush: @MainActor () -> Void
    private var close: (() -> Void)?

    init(sink: some RecordingSink, interval: Int, afterFlush: @escaping @MainActor () -> Void = {}) {
        self.sink = sink
        self.interval = interval
        self.afterFlush = afterFlush
    }

    func middleware<State: RecordableState, Action: RecordableAction>(
        for session: SessionDescriptor, state: State.Type, action: Action.Type
    ) -> [any StoreMiddleware<State, Action>] {
        let recorder = Recorder<State, Action>(sink: sink, session: session)
        close = recorder.close
        let interval = interval, afterFlush = afterFlush
        return [
            recorder,
            Callback<State, Action> { step in
                guard step % interval == 0 else { return }
                recorder.flush()
                afterFlush()
            },
        ]
    }

    func sessionDidFinish(_ session: SessionDescriptor) {
        close?()
    }
}

/// A middleware that calls back with each step number.
@MainActor
final class Callback<State, Action: Sendable>: StoreMiddleware {
    let onStep: (Int) -> Void
    init(_ onStep: @escaping (Int) -> Void) { self.onStep = onStep }
    func didReduce(_ action: Action, state: State, context: StepContext, outputs: [Action]) { onStep(context.step) }
}
