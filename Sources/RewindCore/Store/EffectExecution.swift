/// How a store runs the async work of effects.
public enum EffectExecution: Sendable {
    /// Each effect starts at once in its own task, as an app wants.
    case live
    /// Effects wait in order until ``Store/settle()`` runs them one at a time: the same
    /// actions arrive in the same order on every run, as drivers and tests want.
    case manual
}
