import RewindLog

/// Following a session while it is recorded: `log`, `find` and `step` with `--follow`.
extension LogInspector {
    /// Calls `read` with the steps of `session` from `first` to its last, then with each run of
    /// steps the recorder commits after them, until the session ends, `read` returns false, or
    /// `follower` is cancelled.
    ///
    /// Each run starts right after the previous one and `read` gets the session as the log
    /// holds it then, so no step is handed over twice or skipped.
    package func follow(
        _ session: SessionSummary, from first: Int, with follower: inout LogFollower,
        _ read: (SessionSummary, ClosedRange<Int>) throws(LogError) -> Bool
    ) throws(LogError) -> FollowEnd {
        var current = session, next = first
        while true {
            if next <= current.lastStep {
                guard try read(current, next...current.lastStep) else { return .stopped }
                next = current.lastStep + 1
            }
            // The end and the last step come from one read of the session's row: once it has
            // ended, every step it will have has been read.
            if current.endedAt != nil { return .ended }
            guard let grown = try follower.wait(for: current, pastStep: next - 1) else { return .interrupted }
            current = grown
        }
    }

    /// The timeline of `session` from step `first`, a page at a time, then its steps as they
    /// are recorded (see ``follow(_:from:with:_:)``). An error `body` throws ends it and comes
    /// out as it was; every other error is a ``LogError``.
    package func followTimeline(
        of session: SessionSummary, from first: Int, with follower: inout LogFollower, _ body: ([TimelineEntry]) throws -> Void
    ) throws -> FollowEnd {
        var caller = CallerError()
        do {
            return try follow(session, from: max(1, first), with: &follower) { current, steps throws(LogError) in
                try walkPages(of: current, steps: steps, pageSize: Self.pageSize) { page throws(LogError) in try caller.run { try body(page) } }
                return true
            }
        } catch {
            throw caller.error ?? error
        }
    }

    /// Calls `body` with each step of `session`, step 0 included, whose state satisfies
    /// `predicate`, then with each such step as it is recorded, while `body` returns true.
    package func followMatches(
        _ predicate: StatePredicate, in session: SessionSummary, with follower: inout LogFollower, _ body: (StateMatch) -> Bool
    ) throws(LogError) -> FollowEnd {
        try follow(session, from: 0, with: &follower) { current, steps throws(LogError) in
            try find(predicate, in: current, steps: steps, body)
        }
    }
}
