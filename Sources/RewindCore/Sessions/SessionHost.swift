/// Whatever watches a driven session: a recorder, a timeline printer, a test's trace.
///
/// The driver knows the flow's concrete types; the host gets them through this generic method,
/// so one host serves every flow.
@MainActor
public protocol SessionHost {
    /// The middleware for a session about to start.
    func middleware<State: RecordableState, Action: RecordableAction>(
        for session: SessionDescriptor,
        state: State.Type,
        action: Action.Type
    ) -> [any StoreMiddleware<State, Action>]

    /// The middleware for a session of a store whose reducer is `reducer`. A host that records
    /// gives the reducer to its recorder, which then follows the state from the actions alone
    /// (``Store/init(initialState:reducer:recordingTo:session:configuration:middleware:execution:)``).
    /// By default, ``middleware(for:state:action:)``.
    func middleware<R: Reducer & Sendable>(
        for session: SessionDescriptor, reducer: R
    ) -> [any StoreMiddleware<R.State, R.Action>] where R.State: RecordableState, R.Action: RecordableAction

    /// Called when the driver has made the session's store of `reducer`, before its first
    /// action: a host that shows the store live (`RewindLive`'s `LiveHost`) connects it. By
    /// default, nothing.
    func storeDidStart<R: Reducer & Sendable>(_ store: Store<R.State, R.Action>, session: SessionDescriptor, reducer: R)
    where R.State: RecordableState, R.Action: RecordableAction

    /// Called when the driver has played its last action and every effect has finished.
    func sessionDidFinish(_ session: SessionDescriptor)
}

extension SessionHost {
    public func middleware<R: Reducer & Sendable>(
        for session: SessionDescriptor, reducer: R
    ) -> [any StoreMiddleware<R.State, R.Action>] where R.State: RecordableState, R.Action: RecordableAction {
        middleware(for: session, state: R.State.self, action: R.Action.self)
    }

    public func storeDidStart<R: Reducer & Sendable>(_ store: Store<R.State, R.Action>, session: SessionDescriptor, reducer: R)
    where R.State: RecordableState, R.Action: RecordableAction {}

    public func sessionDidFinish(_ session: SessionDescriptor) {}
}
