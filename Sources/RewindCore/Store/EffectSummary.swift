/// What a step's reducer asked for besides its new state: follow-up actions, outputs to the
/// parent flow, and async work, each in the order the effect lists it.
///
/// Replay compares it with what the recording says the step asked for: a reducer that still
/// sets the same state but no longer starts its request has changed.
public struct EffectSummary<Action: Sendable>: Sendable {
    /// The actions sent with `.send`, dispatched right after the step.
    public var sends: [Action] = []
    /// The outputs emitted with `.output`, for the parent flow.
    public var outputs: [Action] = []
    /// The work started with `.run`: the name each was given, nil for work given none.
    public var runs: [String?] = []

    public init() {}

    /// A summary of what a step asked for, as a recorder without a store is told it.
    public init(sends: [Action], outputs: [Action], runs: [String?]) {
        self.sends = sends
        self.outputs = outputs
        self.runs = runs
    }

    /// Whether the step asked for nothing.
    public var isEmpty: Bool { sends.isEmpty && outputs.isEmpty && runs.isEmpty }
}

extension EffectSummary: Equatable where Action: Equatable {}
