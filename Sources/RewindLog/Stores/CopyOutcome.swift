/// What a store did with a copy of a session, in the words `push` and `pull` print: the one
/// meaning, in every store, of "the store holds it already" (``ReceivedBlocks/outcome``).
public enum CopyOutcome: Sendable, Equatable {
    /// The store did not hold the session; it holds `steps` of it now.
    case added(steps: Int)
    /// The store held fewer of its steps, or not its end (`steps` 0) or a gap marker: it
    /// holds `steps` more, through step `storedThrough`.
    case extended(steps: Int, storedThrough: Int)
    /// The store held every step and the end of the copy already, through `storedThrough`:
    /// past the copy's last step when the copy is older (taken while the session was
    /// recorded, or a flight recorder's that trimmed steps the store keeps). Nothing changed.
    case held(storedThrough: Int)
}

extension ReceivedBlocks {
    /// What the store did with the copy it received, as ``CopyOutcome`` says it.
    public var outcome: CopyOutcome {
        if created { return .added(steps: steps) }
        return changed ? .extended(steps: steps, storedThrough: storedThrough) : .held(storedThrough: storedThrough)
    }
}
