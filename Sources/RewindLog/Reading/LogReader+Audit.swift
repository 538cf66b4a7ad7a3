import GRDB
import RewindJSON

extension LogReader {
    /// The step numbers a sound log holds; a row numbered outside them is damage.
    package static let stepNumbers = 1...LogBounds.maximumStep

    /// SQLite's `PRAGMA integrity_check` over the whole file: `["ok"]` when the file is
    /// sound, else SQLite's own messages, one per problem.
    package func integrityCheck() throws(LogError) -> [String] {
        try read { db in
            try String.fetchAll(db, sql: "PRAGMA integrity_check")
        }
    }

    /// The event, gap and identity rows that name a session with no session row, by table and
    /// session.
    ///
    /// A writer never numbers a new session after them (see ``SQLiteSink``), so they stay
    /// apart; they are listed so that `check` can say rows are there that no session shows.
    package func strayRows() throws(LogError) -> [StrayRows] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT 'event' AS tbl, session_id, count(*) AS n FROM event
                        WHERE session_id NOT IN (SELECT id FROM session) GROUP BY session_id
                    UNION ALL
                    \(formatVersion >= LogSchema.blockFormatVersion ? """
                    SELECT 'event_block', session_id, count(*) FROM event_block
                        WHERE session_id NOT IN (SELECT id FROM session) GROUP BY session_id
                    UNION ALL
                    """ : "")
                    \(formatVersion >= LogSchema.identityFormatVersion ? """
                    SELECT 'session_meta', session_id, count(*) FROM session_meta
                        WHERE session_id NOT IN (SELECT id FROM session) GROUP BY session_id
                    UNION ALL
                    """ : "")
                    SELECT 'gap', session_id, count(*) FROM gap
                        WHERE session_id NOT IN (SELECT id FROM session) GROUP BY session_id
                    ORDER BY 2, 1
                    """
            ).map { row in
                StrayRows(table: try row.stored("tbl"), session: try row.stored("session_id"), count: try row.stored("n"))
            }
        }
    }

    /// A session's initial state (step 0) and the digest stored beside it, as stored: the
    /// digest is not recomputed.
    package func initialRecord(of session: SessionSummary) throws(LogError) -> (state: JSONValue, digest: StateDigest) {
        try read(session: session.number, step: 0) { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT initial_state, initial_digest FROM session WHERE id = ?", arguments: [session.number]) else {
                throw LogError.damage(in: path, "session \(session.label) has no initial state", session: session.number)
            }
            let state = try JSONValue(parsing: try row.stored("initial_state") as String)
            return (state, StateDigest(databaseValue: try row.stored("initial_digest")))
        }
    }

    /// Calls `body` with every stored row of a session in step order, exactly as stored:
    /// nothing is reconstructed and nothing is skipped, so an audit sees holes, patches that
    /// follow them and rows that do not decode. `body` returns false to stop early.
    ///
    /// A row that cannot be decoded (invalid JSON, a malformed patch) is handed over as a
    /// failure naming its step; only a failure to read the table itself throws.
    ///
    /// A long session's rows are read on a thread of their own, ahead of `body`
    /// (``RowPrefetcher``).
    package func scan(_ session: SessionSummary, _ body: (StoredStep) -> Bool) throws(LogError) {
        try scan(session, readingAheadFrom: Self.readingAheadFrom, body)
    }

    /// Runs of at least this many steps are read ahead on another thread: for shorter ones,
    /// starting the thread costs more than it saves.
    static let readingAheadFrom = 4_096

    /// ``scan(_:_:)``, reading ahead once the session has `threshold` steps.
    func scan(_ session: SessionSummary, readingAheadFrom threshold: Int, _ body: (StoredStep) -> Bool) throws(LogError) {
        guard session.lastStep >= threshold else {
            return try read(session: session.number) { db in
                try storedEvents(db, of: session, steps: nil) { visit in
                    body(storedStep(visit, of: session))
                }
            }
        }
        try RowPrefetcher().run(
            { [self] prefetcher throws(LogError) in
                try read(session: session.number) { db in
                    try storedEvents(db, of: session, steps: nil) { visit in
                        prefetcher.push(visit.row, .init(visit))
                    }
                }
            },
            consume: { (row, facts) throws(LogError) in
                body(storedStep(facts.visit(row), of: session))
            }
        ).get()
    }

    /// A stored step as a scan hands it over: decoded, or why it cannot be.
    private func storedStep(_ visit: StoredEventVisit, of session: SessionSummary) -> StoredStep {
        // Read as GRDB reads it, which takes a real too: the audit reports the wrong type.
        let step: Int
        switch visit.row.columns[EventColumn.step] {
        case let .integer(value): step = Int(value)
        case let .real(value) where Int(exactly: value) != nil: step = Int(value)
        default: step = 0
        }
        let event: Result<LoggedEvent, LogError>
        do {
            if let unreadable = visit.unreadable { throw unreadable }
            if let typeProblem = visit.typeProblem { throw typeProblem }
            // Out of range, the audit's arithmetic on it (the step before) could trap.
            try LogBounds.checkStep(step)
            event = .success(try Self.event(from: visit.row, of: session))
        } catch let error as LogError where visit.unreadable != nil {
            event = .failure(error)
        } catch {
            event = .failure(damage(error, at: step, of: session))
        }
        return StoredStep(step: step, event: event, rowCheck: visit.rowCheck, block: visit.block)
    }
}
