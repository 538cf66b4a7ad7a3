import RewindCore
import RewindLog

extension Store where State: RecordableState, Action: RecordableAction {
    /// Creates a store that records every step into `sink` and shows them live in a
    /// `rewind live` inspector (docs/live.md), which may also send the app through time when
    /// `live` allows travel.
    ///
    /// ```swift
    /// let store = Store(
    ///     initialState: TodoState(), reducer: TodoFeature(api: .live),
    ///     recordingTo: try .sqlite(path: logPath), session: SessionDescriptor(name: "todo", flow: "todo"),
    ///     live: .inspector(URL(string: "http://127.0.0.1:7777")!, allowsTravel: true))
    /// ```
    ///
    /// The store keeps its ``LiveConnection`` as long as it lives. Without an inspector
    /// running, the store records exactly as the one without `live` does, and one line goes
    /// to standard error.
    public convenience init<R: Reducer & Sendable>(
        initialState: State, reducer: R, recordingTo sink: SQLiteSink, session: SessionDescriptor, live link: LiveInspectorLink,
        configuration: RecorderConfiguration = .init(), execution: EffectExecution = .live
    ) where R.State == State, R.Action == Action {
        // The recorder writes each step as soon as it has it: held back for the next step's
        // confirmation, the app's last step would not show until its next.
        var configuration = configuration
        configuration.writesWhenCaughtUp = true
        self.init(initialState: initialState, reducer: reducer, recordingTo: sink, session: session, configuration: configuration, execution: execution)
        let connection = LiveConnection(store: self, reducer: reducer, logPath: sink.path, session: session, link: link)
        keep(connection)
        connection.start()
    }
}
