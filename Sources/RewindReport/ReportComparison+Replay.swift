import Foundation
import RewindReplay

extension ReportComparison {
    /// The failing step of a replay, side by side: recorded and replayed for a divergence or a
    /// clock read, two runs that differ for nondeterminism, what the step asks for now for a
    /// change of behaviour; nil for a replay that matched or was refused (there is no second
    /// state to show).
    public init?(_ replay: SessionReplay) {
        if case let .behaviourChanged(step, action, origin, changes) = replay.outcome {
            self.init(
                session: replay.session.number, step: step,
                headline: "Replay diverged at step \(step) (\(origin)  \(action)): the current reducer asks for other work",
                leftTitle: "recorded", left: .null, rightTitle: "replayed", right: .null, behaviour: changes.map(\.description))
            return
        }
        guard let states = replay.failingStates else { return nil }
        let headline: String
        let titles: (String, String)
        switch replay.outcome {
        case let .diverged(step, action, origin, _):
            headline = "Replay diverged at step \(step) (\(origin)  \(action)): the current reducer gives another state"
            titles = ("recorded", "replayed")
        case let .readsClock(step, action, origin, _, paths):
            let fields = paths.map(\.description).joined(separator: ", ")
            headline = "Nondeterministic at step \(step) (\(origin)  \(action)): the replay put the current time in \(fields)"
            titles = ("recorded", "replayed")
        case let .nondeterministic(step, action, origin, _):
            headline = "Nondeterministic at step \(step) (\(origin)  \(action)): the same state and action gave two states"
            titles = ("one run", "another run")
        case .matched, .refused, .behaviourChanged:
            return nil
        }
        guard let step = replay.outcome.failingStep else { return nil }
        self.init(
            session: replay.session.number, step: step, headline: headline, leftTitle: titles.0, left: states.left, rightTitle: titles.1,
            right: states.right)
    }
}

extension SessionReplay.Outcome {
    /// The step a failed replay stopped at.
    var failingStep: Int? {
        switch self {
        case .matched: nil
        case let .diverged(step, _, _, _), let .nondeterministic(step, _, _, _), let .readsClock(step, _, _, _, _), let .refused(step, _),
            let .behaviourChanged(step, _, _, _):
            step
        }
    }
}
