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
}
