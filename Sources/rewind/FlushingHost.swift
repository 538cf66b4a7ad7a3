import Foundation
import RewindCore

/// Records each session into a sink and, when asked, flushes every N steps and says so on
/// standard error: `flushed through step N`. A crash test reads those lines to know what must
/// survive a kill.
@MainActor
final class FlushingHost: SessionHost {
    private let sink: any RecordingSink
    private let interval: Int?
    private var close: (() -> Void)?

    init(sink: some RecordingSink, every interval: Int?) {
        self.sink = sink
        self.interval = interval
    }

    func middleware<State: RecordableState, Action: RecordableAction>(
        for session: SessionDescriptor, state: State.Type, action: Action.Type
    ) -> [any StoreMiddleware<State, Action>] {
        let recorder = Recorder<State, Action>(sink: sink, session: session)
        close = recorder.close
        guard let interval else { return [recorder] }
        return [recorder, PeriodicFlush(recorder: recorder, interval: interval)]
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
