import Foundation
import RewindCore
import RewindJSON
import RewindLog

/// The part of a session that ``SessionShrinker`` kept: its steps, their states through the
/// current reducer, and what the search cost.
public struct ShrunkSession: Sendable {
    public let actions: RecordedActions
    /// The steps kept, in order, up to and with the one that shows the goal.
    public let steps: [RecordedActions.Step]
    /// The state after each kept step: the current reducer's, except that a step that
    /// diverged or was nondeterministic keeps the state the recording gave it (not one run's
    /// draw, which a fixed reducer would not give again) and one that crashed (and gave none)
    /// the state before it, so that replaying the new session shows the same problem at the
    /// same step (a short regression recording until the reducer is fixed or the change
    /// accepted).
    public let states: [JSONValue]
    /// Where the kept steps show the goal.
    public let finding: CandidateReplay.Finding
    public let originalSteps: Int
    public let replays: Int
    public let duration: TimeInterval

    /// A shortened session: `states` must hold one state per step.
    public init(
        actions: RecordedActions, steps: [RecordedActions.Step], states: [JSONValue], finding: CandidateReplay.Finding,
        originalSteps: Int, replays: Int, duration: TimeInterval
    ) {
        precondition(states.count == steps.count, "one state per step")
        self.actions = actions
        self.steps = steps
        self.states = states
        self.finding = finding
        self.originalSteps = originalSteps
        self.replays = replays
        self.duration = duration
    }

    /// The state the recording gave step `step`, migrated to the flow's schema.
    public static func recordedState(of actions: RecordedActions, at step: Int) throws -> JSONValue {
        var state = try LogReader(path: actions.log).state(of: actions.session, at: step)
        try actions.flow.migrate(&state, isAction: false, from: actions.session.schemaVersion)
        return state
    }

    /// `20,000 → 7 steps in 1.8 s, 312 replays`.
    public var summary: String {
        let original = originalSteps.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
        return "\(original) → \(steps.count) step\(steps.count == 1 ? "" : "s") in \(String(format: "%.1f", duration)) s, \(replays) replays"
    }

    /// The name ``write(to:)`` gives the new session: the original's, with `-minimized`.
    public var sessionName: String {
        "\(actions.session.name ?? "session-\(actions.session.number)")-minimized"
    }

    /// Adds the kept steps to the log at `path` (created if missing) as a new session,
    /// ``sessionName``, and returns its number.
    public func write(to path: String) throws -> Int {
        try actions.writeSession(named: sessionName, steps: steps, states: states, to: path)
    }
}
