import Foundation
import RewindJSON

/// Finds a short part of a recorded session that still shows a ``ShrinkGoal``: `rewind
/// minimize`.
///
/// The search removes the user's actions (delta debugging over them), each with the effect
/// results it caused, and replays what is left through the current reducer from the
/// recorded initial state. Everything after the step that first shows the goal is dropped
/// before the search begins: the goal is about a prefix.
public struct SessionShrinker: Sendable {
    public let actions: RecordedActions
    public let goal: ShrinkGoal

    public init(_ actions: RecordedActions, goal: ShrinkGoal) {
        self.actions = actions
        self.goal = goal
    }

    /// The shortest part found, its replay, and what the search cost.
    ///
    /// - Parameter progress: told the current length and the replays so far, after each.
    public func shrink(progress: @escaping (_ steps: Int, _ replays: Int) -> Void = { _, _ in }) throws(ShrinkError) -> ShrunkSession {
        let start = Date()
        let whole = try run(actions.steps)
        guard let first = whole.finding else {
            throw ShrinkError(.notShown, session: actions.session.label, notShownMessage)
        }
        // The user's actions up to the step that shows the goal; what comes after cannot matter.
        let last = first.index >= 0 ? actions.steps[first.index].step : 0
        let users = actions.userSteps.filter { $0 <= last }
        // The last try that showed the goal is the search's result, and its run is the one
        // kept: run again, a step whose randomness fell as recorded (half the time for a
        // `Bool.random()`) would show nothing.
        var shown: (candidate: [Int], replay: CandidateReplay)?
        var search = DeltaDebugging<Int>(
            test: { candidate in
                guard let replay = try? CandidateReplay(actions.keeping(users: Set(candidate)), of: actions, goal: goal),
                    replay.finding != nil, replay.isPossible
                else { return false }
                shown = (candidate, replay)
                return true
            },
            progress: { current, tests in progress(current, tests + 1) })
        let kept: [Int]
        do {
            kept = users.isEmpty ? [] : try search.minimize(users)
        } catch {
            throw ShrinkError(.cannotReplay, session: actions.session.label, "\(error)")
        }
        let steps = actions.keeping(users: Set(kept))
        // The search ends on its last try that showed the goal or, when none did, on all the
        // actions, whose steps up to the finding are the whole session's.
        let final = kept == users ? whole : shown.flatMap { $0.candidate == kept ? $0.replay : nil }
        guard let final, let finding = final.finding else {
            throw ShrinkError(.notShown, session: actions.session.label, "the shortened session no longer shows it")
        }
        var states = final.states
        // The recording's state, not this run's: a fixed reducer gives it again, where a
        // nondeterministic step's run holds one draw of its randomness or clock.
        switch finding {
        case .diverged(_, let recordedStep), .nondeterministic(_, let recordedStep):
            do {
                states[states.count - 1] = try ShrunkSession.recordedState(of: actions, at: recordedStep)
            } catch {
                throw ShrinkError(.cannotReplay, session: actions.session.label, "the recorded state of step \(recordedStep): \(error)")
            }
        case .behaviourChanged, .reached, .crashed:
            break
        }
        return ShrunkSession(
            actions: actions, steps: Array(steps.prefix(states.count)), states: states, finding: finding,
            originalSteps: actions.steps.count, replays: search.tests + 1, duration: Date().timeIntervalSince(start))
    }

    private func run(_ steps: [RecordedActions.Step]) throws(ShrinkError) -> CandidateReplay {
        do {
            return try CandidateReplay(steps, of: actions, goal: goal)
        } catch {
            throw ShrinkError(.cannotReplay, session: actions.session.label, "the current reducer refuses it: \(error)", underlying: error)
        }
    }

    private var notShownMessage: String {
        switch goal {
        case .diverging:
            "session \(actions.session.label) replays without a divergence or a nondeterministic step: nothing to minimize"
        case .reaching(let description, _):
            "no state of session \(actions.session.label) satisfies \(description): nothing to minimize"
        case .crashing:
            "a crash is found only by running each try in a child process (the command line's minimize --crash)"
        }
    }
}
