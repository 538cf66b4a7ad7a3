import RewindLog

/// The checks of one session.
public struct SessionCheck: Sendable, Equatable {
    public var session: SessionSummary
    /// Its gap markers, as the log holds them.
    public var gaps: [LoggedGap]
    /// `steps`, `gaps`, `states`, `keyframes` and `secrets`, in that order.
    public var results: [CheckResult]

    /// The worst status among the results.
    public var status: CheckResult.Status {
        results.map(\.status).max() ?? .ok
    }
}
