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

    /// Called when the driver has played its last action and every effect has finished.
    func sessionDidFinish(_ session: SessionDescriptor)
}

extension SessionHost {
    public func sessionDidFinish(_ session: SessionDescriptor) {}
}
