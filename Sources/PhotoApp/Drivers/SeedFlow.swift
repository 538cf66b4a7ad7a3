import RewindCore

/// One of the photo app's flows, as a recorder and a replayer see it: a name, a reducer and a
/// starting state.
public protocol SeedFlow {
    associatedtype Feature: Reducer & Sendable
    where Feature.State: RecordableState, Feature.Action: RecordableAction

    /// The name sessions of this flow carry in the log, like `login`.
    static var name: String { get }

    /// The state a session starts from.
    static var initialState: Feature.State { get }

    /// The flow's reducer, whose effects talk to `backend`.
    static func reducer(backend: FakeBackend) -> Feature
}
