import RewindJSON
import RewindLog

extension LogInspector {
    /// How many steps a search reads at a time; between two runs it may stop.
    static let findChunk = 4_096

    /// Calls `body` with each step of `sessions`, step 0 included, whose state after the step
    /// satisfies `predicate`, session by session and in order, while `body` returns true. A
    /// trimmed session is searched from its first kept state.
    ///
    /// Reads each session once, a run of steps at a time, so stopping early reads little more
    /// than it needs; a long session is read on every core (`ParallelSearch`).
    public func find(
        _ predicate: StatePredicate, in sessions: [SessionSummary], _ body: (StateMatch) -> Bool
    ) throws(LogError) {
        for session in sessions {
            guard try find(predicate, in: session, steps: session.firstKeptState...max(session.firstKeptState, session.lastStep), body) else { return }
        }
    }

    /// Calls `body` with each step of `range` of `session` (step 0 too, when in the range)
    /// whose state satisfies `predicate`, in order, while `body` returns true; returns whether
    /// `body` wants more. `session` must be as recent as the range: a follower's.
    func find(
        _ predicate: StatePredicate, in session: SessionSummary, steps range: ClosedRange<Int>, _ body: (StateMatch) -> Bool
    ) throws(LogError) -> Bool {
        var goOn = true
        if range.lowerBound == 0, predicate.matches(try reader.state(of: session, at: 0)) {
            goOn = body(StateMatch(session: session, step: 0, origin: nil, action: nil))
        }
        var first = max(1, range.lowerBound)
        let parallel = ParallelSearch(reader: reader, session: session, predicate: predicate)
        if goOn, first <= range.upperBound, parallel.applies(to: first...range.upperBound) {
            return try parallel.run(first...range.upperBound, body)
        }
        // Each run goes on from the state the last one ended with.
        var state: JSONValue?
        while goOn, first <= range.upperBound {
            let last = min(range.upperBound, first + Self.findChunk - 1)
            state = try reader.walkStates(session, steps: first...last, from: state, parsingActions: false) { event, state in
                guard goOn, predicate.matches(state) else { return }
                goOn = body(StateMatch(session: session, step: event.step, origin: event.origin, action: event.actionName))
            }
            first = last + 1
        }
        return goOn
    }

    /// Every step of `sessions` whose state satisfies `predicate`, or the first `limit`.
    public func matches(_ predicate: StatePredicate, in sessions: [SessionSummary], limit: Int = .max) throws(LogError) -> [StateMatch] {
        var found: [StateMatch] = []
        guard limit > 0 else { return found }
        try find(predicate, in: sessions) { match in
            found.append(match)
            return found.count < limit
        }
        return found
    }
}
