/// The reducer a recorder runs on its own thread to follow a store's state from its actions
/// alone, so that dispatch hands the recorder no state (see
/// ``Recorder/init(sink:session:replicating:configuration:)``).
///
/// It keeps the reducer's state changes and drops its effects: the store runs those, and
/// their results come back as actions the recorder hears of too.
@usableFromInline
struct ReplicaReducer<State, Action>: Sendable {
    @usableFromInline let apply: @Sendable (inout State, Action) -> Void

    /// Made in inlinable code, so that the app's module specializes the call for its reducer.
    @inlinable
    init<Replica: Reducer & Sendable>(_ reducer: Replica) where Replica.State == State, Replica.Action == Action {
        apply = { state, action in _ = reducer.reduce(into: &state, action: action) }
    }
}
