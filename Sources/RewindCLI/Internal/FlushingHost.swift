import Foundation
import RewindCore

/// Records each session into a sink and, when asked, flushes every N steps and says so on
/// standard error: `flushed through step N`. A crash test reads those lines to know what must
/// survive a kill. It can also hold the session to a rate, for tests that read while it records.
@MainActor
final class FlushingHost: SessionHost {
    private let sink: any RecordingSink
    private let interval: Int?
    private let rate: Double?
    private var close: (() -> Void)?

    init(sink: some RecordingSink, every interval: Int?, rate: Double? = nil) {
        self.sink = sink
        self.interval = interval
        self.rate = rate
    }

    func middleware<State: RecordableState, Action: RecordableAction>(
        for session: SessionDescriptor, state: State.Type, action: Action.Type
    ) -> [any StoreMiddleware<State, Action>] {
        middleware(around: Recorder<State, Action>(sink: sink, session: session))
    }

    /// A recorder that runs the store's reducer, as an app's store records by default.
    func middleware<R: Reducer & Sendable>(
        for session: SessionDescriptor, reducer: R
    ) -> [any StoreMiddleware<R.State, R.Action>] where R.State: RecordableState, R.Action: RecordableAction {
        middleware(around: Recorder<R.State, R.Action>(sink: sink, session: session, replicating: reducer))
    }

    private func middleware<State: RecordableState, Action: RecordableAction>(
        around recorder: Recorder<State, Action>
    ) -> [any StoreMiddleware<State, Action>] {
        close = recorder.close
        var middleware: [any StoreMiddleware<State, Action>] = [recorder]
        if let interval { middleware.append(PeriodicFlush(recorder: recorder, interval: interval)) }
        if let rate { middleware.append(RatePacer<State, Action>(rate: rate)) }
        return middleware
    }

    func sessionDidFinish(_ session: SessionDescriptor) {
        close?()
        close = nil
    }

    private final class PeriodicFlush<State: RecordableState, Action: RecordableAction>: StoreMiddleware {
        let recorder: Recorder<State, Action>
        let interval: Int

        init(recorder: Recorder<State, Action>, interval: Int) {
            self.recorder = recorder
            self.interval = interval
        }

        func didReduce(_ action: Action, state: State, context: StepContext, outputs: [Action]) {
            guard context.step % interval == 0 else { return }
            recorder.flush()
            FileHandle.standardError.write(Data("flushed through step \(context.step)\n".utf8))
        }
    }
}
