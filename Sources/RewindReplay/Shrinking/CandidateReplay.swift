import RewindJSON
import RewindLog

/// One run of some of a session's steps through the current reducer, stopped where it shows a
/// ``ShrinkGoal``.
public struct CandidateReplay: Sendable {
    /// Where and how the run showed the goal.
    public enum Finding: Sendable, Equatable {
        /// At the step at `index` of the run, the reducer gave another state than the
        /// recording's step `recordedStep` gave from the same state and action.
        case diverged(index: Int, recordedStep: Int)
        /// At the step at `index`, the reducer gave the recorded state but asked for other work
        /// than the recording's step `recordedStep` did.
        case behaviourChanged(index: Int, recordedStep: Int, changes: [BehaviourChange])
        /// Runs of the step at `index` from the same state gave different states (see
        /// ``diverged(index:recordedStep:)`` for `recordedStep`).
        case nondeterministic(index: Int, recordedStep: Int)
        /// The state after the step at `index` satisfies the predicate (`-1`: the initial state).
        case reached(index: Int)
        /// The reducer stopped the program at the step at `index` (found in a child process).
        case crashed(index: Int, message: String)

        /// The index of the step that showed it.
        public var index: Int {
            switch self {
            case .diverged(let index, _), .behaviourChanged(let index, _, _), .nondeterministic(let index, _), .reached(let index),
                .crashed(let index, _):
                index
            }
        }
    }

    /// What the run showed, if anything.
    public let finding: Finding?
    /// Whether every effect result run follows a step that, replayed, still started an effect:
    /// a result whose cause no longer starts one (a login answer after a tap on an invalid
    /// form) could not have happened, and a shortened session that needs it is no finding.
    public let isPossible: Bool
    /// The states after each step run, up to and with the finding's.
    public let states: [JSONValue]
    /// With `comparingBehaviour`: the steps run whose reducer asks for other work than the
    /// recording's same step did, by their number in the recording.
    public let behaviourChanges: [Int: [BehaviourChange]]

    /// Runs `steps` of `actions` from its initial state; throws when the reducer refuses a
    /// step (it no longer decodes).
    public init(
        _ steps: [RecordedActions.Step], of actions: RecordedActions, goal: ShrinkGoal, comparingBehaviour: Bool = false
    ) throws(ReplayError) {
        var stepper = actions.flow.stepper(digestRule: actions.session.digestRule)
        // Digests compared with the recording's, by its rule.
        let rule = actions.session.digestRule
        try stepper.reset(to: actions.initialState)
        var states: [JSONValue] = []
        var finding: Finding?
        var starters = Set<Int>()
        var behaviourChanges: [Int: [BehaviourChange]] = [:]
        var isPossible = true
        var before = actions.initialState
        var beforeDigest = before.digest(by: rule)
        let run = Set(steps.map(\.step))
        if case .reaching(_, let predicate) = goal, predicate(before) { finding = .reached(index: -1) }
        for (index, step) in steps.enumerated() where finding == nil {
            let after = try stepper.step(step.action)
            if stepper.lastStepSendsActions { starters.insert(step.step) }
            if let cause = step.cause, run.contains(cause), !starters.contains(cause) { isPossible = false }
            let afterDigest = after.digest(by: rule)
            states.append(after)
            if comparingBehaviour, let behaviour = try stepper.lastStepBehaviour() {
                let recorded = RecordedBehaviour(cause: step.cause, outputs: step.outputs, effects: step.effects)
                let changes = BehaviourChange.changes(recorded: recorded, replayed: behaviour)
                if !changes.isEmpty { behaviourChanges[step.step] = changes }
            }
            switch goal {
            case .reaching(_, let predicate):
                if predicate(after) { finding = .reached(index: index) }
            case .crashing:
                break
            case .diverging:
                guard let recorded = actions.recorded(from: beforeDigest, action: step.action) else { break }
                if recorded.after != afterDigest {
                    // A step that reads a secret's characters, which the log does not keep, may
                    // give another state without any change of behaviour: not evidence.
                    switch try RepeatedRuns.run(stepper, from: before, action: step.action) {
                    case .differ:
                        finding = .nondeterministic(index: index, recordedStep: recorded.step)
                    case .agree(_, let readSecret):
                        if !readSecret { finding = .diverged(index: index, recordedStep: recorded.step) }
                    }
                } else if let behaviour = try stepper.lastStepBehaviour() {
                    let changes = BehaviourChange.changes(recorded: recorded.behaviour, replayed: behaviour)
                    if !changes.isEmpty { finding = .behaviourChanged(index: index, recordedStep: recorded.step, changes: changes) }
                }
            }
            before = after
            beforeDigest = afterDigest
        }
        self.finding = finding
        self.states = states
        self.behaviourChanges = behaviourChanges
        self.isPossible = isPossible
    }
}
