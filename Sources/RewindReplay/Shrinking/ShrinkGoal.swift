import RewindJSON

/// What a shortened session must still show for `rewind minimize` to keep it.
public enum ShrinkGoal: Sendable {
    /// A replay through the current reducer diverges from the recording, or is
    /// nondeterministic: at some step, from a state the recording passed through, the action
    /// gives another state than it gave there, or runs of it differ.
    case diverging
    /// A state, after some step, satisfies the predicate (named by `description`).
    case reaching(description: String, predicate: @Sendable (JSONValue) -> Bool)
    /// The reducer stops the program. Only a child process can see it (the command line's
    /// `minimize --crash` runs each try in one); a replay here finds nothing for it.
    case crashing
}
