import RewindJSON

/// A session replayed with some steps left out, and what changes: `rewind replay --skip`.
///
/// Each skipped step goes with every step it caused (an effect's result cannot come without
/// the step that started the effect). The rest goes through the current reducer from the
/// recorded initial state, up to a chosen step, and the last state is compared with the one
/// the recording has at that step.
public struct WhatIfReplay: Sendable {
    public let actions: RecordedActions
    /// The steps asked to be skipped.
    public let skipped: [Int]
    /// The steps left out because a skipped one caused them, directly or not.
    public let consequences: [Int]
    /// The steps replayed, in order.
    public let steps: [RecordedActions.Step]
    /// The state after each replayed step.
    public let states: [JSONValue]
    /// The recording's step the outcome is compared with.
    public let comparedStep: Int
    /// From the recording's state at ``comparedStep`` to the replay's last state.
    public let changes: [JSONChange]
    /// Whether every effect result replayed still follows a step that starts an effect; when
    /// not, the outcome may be one the app could not reach.
    public let isPossible: Bool
    /// The steps replayed whose reducer asks for other work than recorded, in order, with the
    /// name and origin the current types give their actions.
    public let behaviourChanges: [(step: Int, action: String, origin: String, changes: [BehaviourChange])]

    /// Replays `actions` without `skipped` (and what they caused), through step `until` (the
    /// last when nil). Step numbers are checked by the caller (see ``invalidSteps(_:)``).
    public init(_ actions: RecordedActions, skipping skipped: Set<Int>, until: Int? = nil) throws(ShrinkError) {
        let last = min(until ?? .max, actions.steps.last?.step ?? 0)
        let window = actions.steps.filter { $0.step <= last }
        let kept = actions.removing(skipped).filter { $0.step <= last }
        let keptSteps = Set(kept.map(\.step))
        let replay: CandidateReplay
        do {
            replay = try CandidateReplay(kept, of: actions, goal: .crashing, comparingBehaviour: true)
        } catch {
            throw ShrinkError(.cannotReplay, session: actions.session.label, "the current reducer refuses it: \(error)", underlying: error)
        }
        let recorded: JSONValue
        do {
            recorded = last == 0 ? actions.initialState : try ShrunkSession.recordedState(of: actions, at: last)
        } catch {
            throw ShrinkError(.cannotReplay, session: actions.session.label, "the recorded state of step \(last): \(error)")
        }
        self.actions = actions
        self.skipped = skipped.sorted()
        self.consequences = window.map(\.step).filter { !keptSteps.contains($0) && !skipped.contains($0) }
        self.steps = kept
        self.states = replay.states
        self.comparedStep = last
        self.changes = JSONDiff.changes(from: recorded, to: replay.states.last ?? actions.initialState)
        self.isPossible = replay.isPossible
        let stepper = actions.flow.stepper(digestRule: actions.session.digestRule)
        self.behaviourChanges = kept.compactMap { step in
            guard let changes = replay.behaviourChanges[step.step] else { return nil }
            let description = try? stepper.describe(step.action)
            return (step.step, description?.name ?? "", description?.origin ?? "", changes)
        }
    }

    /// The steps of `requested` that the session does not have.
    public static func invalidSteps(_ requested: Set<Int>, in actions: RecordedActions) -> [Int] {
        requested.subtracting(actions.steps.map(\.step)).sorted()
    }

    /// The name ``write(to:)`` gives the new session: the original's, with `-what-if`.
    public var sessionName: String {
        "\(actions.session.name ?? "session-\(actions.session.number)")-what-if"
    }

    /// Adds the replayed steps to the log at `path` as a new session, ``sessionName``.
    public func write(to path: String) throws -> Int {
        try actions.writeSession(named: sessionName, steps: steps, states: states, to: path)
    }
}
