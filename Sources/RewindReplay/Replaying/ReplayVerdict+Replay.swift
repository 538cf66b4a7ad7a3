import Foundation
import RewindCore

extension ReplayVerdict {
    /// The verdict of `replay` against `build`: a changed behaviour is a divergence (the step
    /// no longer does what was recorded), a clock read is nondeterminism.
    public init(_ replay: SessionReplay, build: String, at: Date = Date()) {
        let (outcome, step): (Outcome, Int) =
            switch replay.outcome {
            case .matched: (.passed, 0)
            case .diverged(let step, _, _, _), .behaviourChanged(let step, _, _, _): (.diverged, step)
            case .nondeterministic(let step, _, _, _), .readsClock(let step, _, _, _, _): (.nondeterministic, step)
            case .refused(let step, _): (.refused, step)
            }
        self.init(outcome: outcome, step: step, build: build, at: at)
    }
}
