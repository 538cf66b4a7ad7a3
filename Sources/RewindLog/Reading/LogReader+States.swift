import Foundation
import GRDB
import RewindJSON

extension LogReader {
    /// The state after `step` of a session (0 is the initial state), rebuilt from the nearest
    /// keyframe at or before it and the patches after that, every row checked against its
    /// checksum and the state against the digest recorded with it.
    public func state(of session: SessionSummary, at step: Int) throws(LogError) -> JSONValue {
        try checkStep(step, in: session)
        return try read(session: session.number, step: step) { db in try state(db, of: session, at: step, checkingDigest: true) }
    }

    /// The same, inside a read that is already open.
    ///
    /// - Parameter checkingDigest: also compare the rebuilt state's digest with the recorded
    ///   one, which catches what checksums cannot (a patch that applies wrongly).
    func state(_ db: Database, of session: SessionSummary, at step: Int, checkingDigest: Bool = false) throws -> JSONValue {
        let keyframe = try lastKeyframe(db, of: session, atOrBefore: step)
        var (state, digest) = try keyframe == nil ? initialState(db, session) : (.null, nil)
        var expected = keyframe ?? 1
        // Step 0 reads no row: the range is empty.
        try checkedEventRows(db, of: session, steps: step < expected ? nil : expected...step, none: step < expected, asked: step) { row in
            let columns = EventColumn.self
            let current = try row.int(columns.step)
            guard current == expected else { throw try notRecorded(expected, askedFor: step, db, in: session) }
            do {
                if let keyframe = try row.optionalJSON(columns.keyframe) {
                    state = keyframe
                } else if let patch = try row.optionalPatch(columns.patch) {
                    try state.apply(patch)
                }
                digest = StateDigest(databaseValue: Int64(try row.int(columns.digest)))
            } catch {
                throw damage(error, at: current, of: session)
            }
            expected += 1
            return true
        }
        guard expected == step + 1 else { throw try notRecorded(expected, askedFor: step, db, in: session) }
        if checkingDigest, isVerifying, let digest, state.digest(by: session.digestRule) != digest {
            throw LogError.damage(
                in: path, "step \(step) of session \(session.label): the rebuilt state does not match its recorded digest",
                session: session.number, step: step)
        }
        return state
    }

    /// `error`, met reading `step` of `session`, as damage that names them.
    func damage(_ error: any Error, at step: Int, of session: SessionSummary) -> LogError {
        let reason = Self.logError(error, path: path)
        let detail = reason.message.hasPrefix("the log is damaged: ") ? String(reason.message.dropFirst("the log is damaged: ".count)) : reason.message
        return .damage(
            in: path, "step \(step) of session \(session.label): \(detail)", session: session.number, step: step, underlying: reason.underlying ?? error)
    }

    /// Calls `body` with each event of `range`, the state before it and the state after it.
    /// An error `body` throws ends the walk: a ``LogError`` as it is, any other as a
    /// ``LogError/Kind/stoppedByCaller`` whose `underlying` it is.
    ///
    /// Rebuilds the state before the range once, then applies each step's patch: a walk over a
    /// range reads each row once. Without `parsingActions`, events carry a `null` action and no
    /// outputs (their names and origins stay), for a reader that wants only states.
    ///
    /// The rows of a range of 4,096 steps or more are read on a thread of their own, ahead of
    /// `body`, unless `readingAhead` is false: for a caller that walks on every core already.
    package func walk(
        _ session: SessionSummary, steps range: ClosedRange<Int>, parsingActions: Bool = true, readingAhead: Bool = true,
        _ body: (LoggedEvent, JSONValue, JSONValue) throws -> Void
    ) throws(LogError) {
        try walk(session, steps: range, from: nil, parsingActions: parsingActions, readingAhead: readingAhead, keepingBefore: true) {
            event, before, after in
            try body(event, before ?? .null, after)
        }
    }

    /// Calls `body` with each event of `range` and the state after it, like
    /// ``walk(_:steps:parsingActions:readingAhead:_:)`` without the state before; returns the state after
    /// the range's last step.
    ///
    /// Each patch is then applied in place: keeping the state before made every step copy the
    /// state's outer object (5 % of `find` over login states, 9 % of `history`).
    ///
    /// - Parameter initial: the state before the range's first step, as an earlier walk of
    ///   the steps before returned it, so that a walk in runs does not rebuild it from the
    ///   last keyframe for each; any value when the range starts at a keyframe (the keyframe
    ///   replaces it); nil to rebuild it.
    @discardableResult
    package func walkStates(
        _ session: SessionSummary, steps range: ClosedRange<Int>, from initial: JSONValue? = nil, parsingActions: Bool = true,
        readingAhead: Bool = true, _ body: (LoggedEvent, JSONValue) throws -> Void
    ) throws(LogError) -> JSONValue {
        try walk(session, steps: range, from: initial, parsingActions: parsingActions, readingAhead: readingAhead, keepingBefore: false) {
            event, _, after in
            try body(event, after)
        }
    }

    @discardableResult
    private func walk(
        _ session: SessionSummary, steps range: ClosedRange<Int>, from initial: JSONValue?, parsingActions: Bool, readingAhead: Bool,
        keepingBefore: Bool,
        _ body: (LoggedEvent, JSONValue?, JSONValue) throws -> Void
    ) throws(LogError) -> JSONValue {
        let first = max(1, range.lowerBound)
        let last = min(range.upperBound, session.lastStep)
        // Not `??`, whose autoclosure would lose the thrown type.
        var state: JSONValue
        if let initial {
            state = initial
        } else if session.notKept?.contains(first - 1) == true {
            // The walk starts at the first kept step, whose keyframe replaces any state.
            state = .null
        } else {
            state = try self.state(of: session, at: min(first - 1, session.lastStep))
        }
        guard first <= last else { return state }
        var expected = first
        func visit(_ row: StoredEventRow) throws {
            let event = try decodedEvent(from: row, of: session, parsingActions: parsingActions)
            if event.step != expected {
                // A gap: the event after it is a keyframe, so the walk goes on from there.
                guard event.keyframe != nil else { throw notRecorded(expected, in: session) }
            }
            let before = keepingBefore ? state : nil
            if let keyframe = event.keyframe {
                state = keyframe
            } else if let patch = event.patch {
                try state.apply(patch)
            }
            do {
                try body(event, before, state)
            } catch let error as LogError {
                throw error
            } catch {
                // Else taken below for damage of the log, as any error met while reading is.
                throw LogError(.stoppedByCaller, path: path, session: session.number, step: event.step, "the walk's body threw: \(error)", underlying: error)
            }
            expected = event.step + 1
        }
        guard readingAhead, last - first + 1 >= Self.readingAheadFrom else {
            try read(session: session.number) { db in
                try checkedEventRows(db, of: session, steps: first...last) { row in
                    try visit(row)
                    return true
                }
            }
            return state
        }
        try RowPrefetcher().run(
            { [self] prefetcher throws(LogError) in
                try read(session: session.number) { db in
                    try checkedEventRows(db, of: session, steps: first...last) { row in
                        prefetcher.push(row, .init(rowCheck: .verified))
                    }
                }
            },
            consume: { (row, _) throws(LogError) in
                // As `read` would have named it, had the walk run inside it.
                do {
                    try visit(row)
                } catch {
                    throw Self.logError(error, path: path, session: session.number)
                }
                return true
            }
        ).get()
        return state
    }

    /// The steps of `range` stored as keyframes, in order: where a walk may start without the
    /// state before (see ``walkStates(_:steps:from:parsingActions:readingAhead:_:)``).
    package func keyframeSteps(of session: SessionSummary, in range: ClosedRange<Int>) throws(LogError) -> [Int] {
        try read(session: session.number) { db in
            let arguments: StatementArguments = [session.number, range.lowerBound, range.upperBound]
            if storesBlocks(session) {
                return try Int.fetchAll(
                    db,
                    sql: "SELECT first_step FROM event_block WHERE session_id = ? AND first_step BETWEEN ? AND ? AND keyframe = 1 ORDER BY first_step",
                    arguments: arguments)
            }
            func query(_ index: String) -> String {
                "SELECT step FROM event \(index) WHERE session_id = ? AND step BETWEEN ? AND ? AND keyframe IS NOT NULL ORDER BY step"
            }
            do {
                // Without statistics SQLite walks the primary key, reading every row's keyframe
                // column (the whole table); the index of keyframes holds only them.
                return try Int.fetchAll(db, sql: query("INDEXED BY event_keyframe"), arguments: arguments)
            } catch {
                // A file without the index (none that Rewind wrote) is read the long way.
                return try Int.fetchAll(db, sql: query(""), arguments: arguments)
            }
        }
    }

    /// The last step at or before `step` stored as a keyframe: where rebuilding its state
    /// starts; nil when the initial state is nearer. In a session of blocks, a block's first
    /// step (a writer starts a block at each keyframe).
    func lastKeyframe(_ db: Database, of session: SessionSummary, atOrBefore step: Int) throws -> Int? {
        let sql =
            storesBlocks(session)
            ? "SELECT max(first_step) FROM event_block WHERE session_id = ? AND first_step <= ? AND keyframe = 1"
            : "SELECT max(step) FROM event WHERE session_id = ? AND step <= ? AND keyframe IS NOT NULL"
        return try Int.fetchOne(db, sql: sql, arguments: [session.number, step])
    }

    /// `step`, or counted back from the session's last step when negative (-1 is the last);
    /// throws a ``LogError/Kind/noSuchStep`` error when that is outside the session.
    package func resolveStep(_ step: Int, in session: SessionSummary) throws(LogError) -> Int {
        guard step < 0 else {
            try checkStep(step, in: session)
            return step
        }
        let resolved = session.lastStep + 1 + step
        guard resolved >= 0 else {
            throw LogError(
                .noSuchStep, path: path, session: session.number, step: step,
                "step \(step) is out of range: session \(session.label) has steps 0 through \(session.lastStep), and -1 is the last")
        }
        return resolved
    }

    /// Throws unless `step` is between 0 and the session's last step.
    package func checkStep(_ step: Int, in session: SessionSummary) throws(LogError) {
        guard (0...session.lastStep).contains(step) else {
            throw LogError(
                .noSuchStep, path: path, session: session.number, step: step,
                "step \(step) is out of range: session \(session.label) has steps 0 through \(session.lastStep)")
        }
    }

    private func initialState(_ db: Database, _ session: SessionSummary) throws -> (JSONValue, StateDigest?) {
        guard let row = try Row.fetchOne(db, sql: "SELECT initial_state, initial_digest FROM session WHERE id = ?", arguments: [session.number]) else {
            throw LogError.damage(in: path, "session \(session.label) has no initial state", session: session.number)
        }
        do {
            return (try JSONValue(parsing: try row.stored("initial_state") as String), StateDigest(databaseValue: try row.stored("initial_digest")))
        } catch {
            throw damage(error, at: 0, of: session)
        }
    }

    private func notRecorded(_ step: Int, in session: SessionSummary) -> LogError {
        .stepNotRecorded(step, of: session, in: path)
    }

    /// The step to name when rebuilding the state of `asked` met no row for `missing`: `asked`
    /// itself when it has no row either (the usual case: a recorder starts again after a gap
    /// with a keyframe, so only a step inside a gap has a missing step before it), else
    /// `missing`.
    private func notRecorded(_ missing: Int, askedFor asked: Int, _ db: Database, in session: SessionSummary) throws -> LogError {
        let sql =
            storesBlocks(session)
            ? """
            SELECT EXISTS (SELECT 1 FROM event_block WHERE session_id = ?1
                AND first_step = (SELECT max(first_step) FROM event_block WHERE session_id = ?1 AND first_step <= ?2) AND last_step >= ?2)
            """
            : "SELECT EXISTS (SELECT 1 FROM event WHERE session_id = ?1 AND step = ?2)"
        let askedIsStored = try Bool.fetchOne(db, sql: sql, arguments: [session.number, asked]) ?? false
        return notRecorded(askedIsStored ? missing : asked, in: session)
    }
}

extension LogReader {
    /// Calls `body` with each step's action and digest, in order, without rebuilding states;
    /// `body` gets a function that rebuilds the state at a step when it needs one, and returns
    /// whether to go on.
    package func actions(
        of session: SessionSummary, _ body: (RecordedAction, (Int) throws -> JSONValue) throws -> Bool
    ) throws(LogError) {
        try read(session: session.number) { db in
            try checkedEventRows(db, of: session, steps: nil) { row in
                let columns = EventColumn.self
                let step = try row.int(columns.step)
                let action: RecordedAction
                do {
                    action = try RecordedAction(
                        step: step, origin: row.text(columns.origin), actionName: row.text(columns.actionType), action: row.json(columns.action),
                        digest: StateDigest(databaseValue: Int64(row.int(columns.digest))),
                        behaviour: RecordedBehaviour.read(
                            cause: row.optionalInt(columns.cause), outputs: row.optionalBytes(columns.outputs), effects: row.effectsBytes(), of: session)
                    )
                } catch {
                    throw damage(error, at: step, of: session)
                }
                return try body(action, { step in try state(db, of: session, at: step) })
            }
        }
    }
}
