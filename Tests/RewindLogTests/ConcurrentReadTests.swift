import Foundation
import PhotoApp
import RewindCore
import RewindJSON
import Testing

@testable import RewindLog

@MainActor
@Suite struct ConcurrentReadTests {
    /// Reads the log on another thread while the main actor records into it.
    @Test func aReaderDuringRecordingSeesAConsistentPrefix() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("live.rewind")
        let sink = try SQLiteSink(path: path)
        let host = FlushEveryHost(sink: sink, interval: 50)
        let reading = Task.detached { () throws -> (reads: Int, lastSeen: Int) in
            var reads = 0, lastSeen = 0
            while !Task.isCancelled {
                guard FileManager.default.fileExists(atPath: path),
                    let reader = try? LogReader(path: path), let session = try reader.sessions().first
                else {
                    await Task.yield()
                    continue
                }
                #expect(session.lastStep >= lastSeen, "the prefix only grows")
                #expect(session.eventCount == session.lastStep, "no gaps")
                lastSeen = session.lastStep
                if session.lastStep > 0 {
                    let events = try reader.events(of: session, steps: session.lastStep...session.lastStep)
                    #expect(try reader.state(of: session, at: session.lastStep).digest == events.first?.digest)
                }
                reads += 1
            }
            return (reads, lastSeen)
        }
        await RandomSession(flow: "login", seed: 5, steps: 5_000)!.run(host: host, start: .testEpoch)
        reading.cancel()
        let outcome = try await reading.value
        try sink.close()
        #expect(outcome.reads > 0)
        #expect(outcome.lastSeen <= (try LogReader(path: path).session(nil).lastStep))
    }
}

/// Records with a flush every `interval` steps, so readers see the log grow.
@MainActor
final class FlushEveryHost: SessionHost {
    let sink: any RecordingSink
    let interval: Int
    private var close: (() -> Void)?

    init(sink: some RecordingSink, interval: Int) {
        self.sink = sink
        self.interval = interval
    }

    func middleware<State: RecordableState, Action: RecordableAction>(
        for session: SessionDescriptor, state: State.Type, action: Action.Type
    ) -> [any StoreMiddleware<State, Action>] {
        let recorder = Recorder<State, Action>(sink: sink, session: session)
        close = recorder.close
        let interval = interval
        return [recorder, Callback<State, Action> { step in if step % interval == 0 { recorder.flush() } }]
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
