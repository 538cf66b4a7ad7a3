import RewindJSON

/// What a live inspector asks of a running app (DESIGN.md section 17), carried out by a
/// ``LiveTraveller`` on the app's store.
public enum LiveCommand: Sendable, Equatable {
    /// Show the recorded state of a step (0: the initial state), and hold back what the UI
    /// sends until ``resume``.
    case travel(step: Int)
    /// Show the present again, and take actions again.
    case resume
    /// Show the present recomputed without a step (and the steps it caused), as
    /// `rewind replay --skip` computes it; steps skipped before stay skipped.
    case skip(step: Int)
    /// Take a skipped step back; with none left skipped, the same as ``resume``.
    case unskip(step: Int)
    /// Send an action, written as the JSON a recorder writes of it, through the store: decoded
    /// by the app's type, reduced and recorded with the origin `inspector`. A travelling store
    /// returns to the present first, since the action acts on the present.
    case dispatch(action: JSONValue)
}
