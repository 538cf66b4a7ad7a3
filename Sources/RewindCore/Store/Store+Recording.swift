extension Store where State: RecordableState, Action: RecordableAction {
    /// Creates a store that records every step into `sink`, as one session.
    ///
    /// This is the way to record a store. The recorder follows the state by running the
    /// store's own reducer on its own thread (see
    /// ``Recorder/init(sink:session:replicating:configuration:)``), so dispatch hands it the
    /// action alone, a large state is mutated in place, and every
    /// ``RecorderConfiguration/keyframeInterval`` steps the recorder checks its state against
    /// the store's. The reducer must be pure and `Sendable`; a view model with no reducer
    /// records with ``Recorder/init(sink:session:configuration:)`` instead.
    ///
    /// ```swift
    /// let store = Store(
    ///     initialState: TodoState(), reducer: TodoFeature(api: .live),
    ///     recordingTo: try .sqlite(path: logPath), session: SessionDescriptor(name: "bug-1234", flow: "todo"))
    /// // when the session ends:
    /// store.recorder?.close()
    /// ```
    ///
    /// - Parameters:
    ///   - initialState: the state at step 0, recorded first.
    ///   - reducer: applies each action to the state; the recorder runs it too.
    ///   - sink: where the session goes, like `.sqlite(path:)`.
    ///   - session: the session's name, flow and clock.
    ///   - configuration: the recorder's queue, keyframes, redaction and sampling.
    ///   - middleware: more middleware, told of each step after the recorder.
    ///   - execution: `.live` runs effects at once; `.manual` waits for ``settle()``.
    @inlinable
    public convenience init<R: Reducer & Sendable>(
        initialState: State,
        reducer: R,
        recordingTo sink: some RecordingSink,
        session: SessionDescriptor,
        configuration: RecorderConfiguration = .init(),
        middleware: [any StoreMiddleware<State, Action>] = [],
        execution: EffectExecution = .live
    ) where R.State == State, R.Action == Action {
        let recorder = Recorder<State, Action>(sink: sink, session: session, replicating: reducer, configuration: configuration)
        self.init(initialState: initialState, reducer: reducer, middleware: [recorder] + middleware, execution: execution)
    }
}
