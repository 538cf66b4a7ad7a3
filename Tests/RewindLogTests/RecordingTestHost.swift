import Foundation
import RewindCore
import RewindJSON

/// Records sessions into a sink and, beside the recorder, keeps every state the store had,
/// encoded, to compare with what the log gives back.
@MainActor
final class RecordingTestHost: SessionHost {
    let sink: any RecordingSink
    var configuration = RecorderConfiguration()
    /// Per session: the encoded state after a step (0 is the initial state); nil past the end.
    private(set) var expectedStates: [(Int) -> JSONValue?] = []
    /// Per session: the number of steps.
    private(set) var stepCounts: [Int] = []
    private var recorders: [() -> Void] = []

    init(sink: some RecordingSink) {
        self.sink = sink
    }

    func middleware<State: RecordableState, Action: RecordableAction>(
        for session: SessionDescriptor, state: State.Type, action: Action.Type
    ) -> [any StoreMiddleware<State, Action>] {
        let recorder = Recorder<State, Action>(sink: sink, session: session, configuration: configuration)
        let trace = Trace<State, Action>()
        recorders.append {
            recorder.close()
            self.stepCounts.append(trace.steps.count)
            self.expectedStates.append { step in trace.state(at: step).map { try! JSONValueEncoder().encode($0) } }
        }
        return [recorder, trace]
    }

    func sessionDidFinish(_ session: SessionDescriptor) {
        recorders.removeFirst()()
    }
}
