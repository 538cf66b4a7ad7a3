import RewindJSON

/// A step that did not give the recorded state, run again from the recorded state before it:
/// how replay and minimize tell a reducer that reads randomness or the clock from one whose
/// behaviour changed.
///
/// A deterministic reducer gives the same state every run. One that picks between two equally
/// likely states (`Bool.random()`) gives the same one `count` runs in a row with probability
/// 2^-(count - 1): with 21 runs, 2^-20 ≈ 9.5 × 10^-7, so such a step passes for a plain
/// divergence about once in a million. More outcomes agree less often still; an outcome that
/// is rare itself is missed (a 1-in-100 event stays away from 21 runs 81 % of the time).
///
/// Only a step whose digest does not match runs them, so a replay that matches pays nothing;
/// a regression costs 21 runs of its one diverging step, and nondeterminism usually shows
/// by the second or third.
enum RepeatedRuns {
    /// How many runs a step whose runs all agree gets.
    static let count = 21

    enum Outcome {
        /// Two runs gave different states: the first run's and the first that differed.
        case differ(JSONValue, JSONValue)
        /// Every run gave `state`; `readSecret` when one read a redacted secret's characters.
        case agree(state: JSONValue, readSecret: Bool)
    }

    /// Reduces `action` from `state` up to ``count`` times, stopping at the first run that
    /// differs from the first.
    static func run(_ stepper: any ReplayStepper, from state: JSONValue, action: JSONValue) throws(ReplayError) -> Outcome {
        let first = try stepper.trial(from: state, action: action)
        var readSecret = first.readSecret
        for _ in 1..<count {
            let next = try stepper.trial(from: state, action: action)
            if next.state != first.state { return .differ(first.state, next.state) }
            readSecret = readSecret || next.readSecret
        }
        return .agree(state: first.state, readSecret: readSecret)
    }
}
