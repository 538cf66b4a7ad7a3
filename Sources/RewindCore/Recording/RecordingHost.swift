/// Records every session a driver plays into one sink, one recorder per session.
@MainActor
public final class RecordingHost: SessionHost {
    private let sink: any RecordingSink
    private let configuration: @Sendable () -> RecorderConfiguration
    private var closers: [() -> Void] = []

    /// Records into `sink`; each recorder gets `configuration`.
    public init(sink: some RecordingSink, configuration: @escaping @Sendable () -> RecorderConfiguration = { .init() }) {
        self.sink = sink
        self.configuration = configuration
    }

    public func middleware<State: RecordableState, Action: RecordableAction>(
        for session: SessionDescriptor, state: State.Type, action: Action.Type
    ) -> [any StoreMiddleware<State, Action>] {
        let recorder = Recorder<State, Action>(sink: sink, session: session, configuration: configuration())
        closers.append(recorder.close)
        return [recorder]
    }

    /// A recorder that runs `reducer` to follow the store's state, as a store made with
    /// ``Store/init(initialState:reducer:recordingTo:session:configuration:middleware:execution:)``
    /// records.
    public func middleware<R: Reducer & Sendable>(
        for session: SessionDescriptor, reducer: R
    ) -> [any StoreMiddleware<R.State, R.Action>] where R.State: RecordableState, R.Action: RecordableAction {
        let recorder = Recorder<R.State, R.Action>(sink: sink, session: session, replicating: reducer, configuration: configuration())
        closers.append(recorder.close)
        return [recorder]
    }

    /// Closes the session's recorder: everything it recorded is written.
    public func sessionDidFinish(_ session: SessionDescriptor) {
        closers.removeFirst()()
    }
}
