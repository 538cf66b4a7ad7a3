/// A problem a recorder met while recording, reported through
/// ``RecorderConfiguration/onError`` (the log marks what it cost as a gap).
public enum RecorderError: Error, Equatable, Sendable {
    /// The state the recorder's replica of the reducer computed for `step` is not the store's:
    /// the reducer is not deterministic (it read a clock, a random number or a shared object),
    /// so replaying the recording will not reproduce it either.
    ///
    /// The states of `unconfirmedSteps`, computed by the replica since the last step whose
    /// state agreed, are unknown: the log marks them as a gap. `step` is stored with the
    /// store's state, and from then on the recorder takes the store's state at every step.
    case replicaDisagreed(step: Int, unconfirmedSteps: ClosedRange<Int>?)
}

extension RecorderError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .replicaDisagreed(step, unconfirmed):
            let lost = unconfirmed.map { ", so the states of steps \($0.lowerBound)-\($0.upperBound) are unknown" } ?? ""
            return "the reducer is not deterministic: run again on the recorder's thread, step \(step) gave a state other than the store's\(lost)"
        }
    }
}
