import Foundation
import GRDB
import RewindCore
import RewindJSON

/// Reads a Rewind log: its sessions, their events, and the state at any step.
///
/// Opens the file read-only: reading never changes it, and works while a recorder writes.
public final class LogReader: Sendable {
    /// The log's path, or the location whose sessions it reads (``LocalCopies``): what
    /// messages name.
    public let path: String
    /// The file read: `path`, or the local copy that stands for it.
    package let file: String
    let database: DatabaseQueue
    /// The log's format version: 1 has no checksums, 2 a checksum on every row, 3 (and on)
    /// stores sessions' steps in blocks (`event_block`); a session keeps the format it was
    /// written in until `replay --update` rewrites it.
    public let formatVersion: Int
    /// Whether rows are checked against their checksums and rebuilt states against their
    /// digests; false only to show damaged data on purpose (`show --force`).
    package let isVerifying: Bool

    /// Opens the log at `path` for reading.
    ///
    /// - Parameter verifying: check every row read against its checksum and every state
    ///   rebuilt against its digest (the default). Without, damaged data reads as if it were
    ///   sound: for showing it on purpose, marked as such.
    public init(path: String, verifying: Bool = true) throws(LogError) {
        self.path = path
        let file = LocalCopies.file(standingFor: path) ?? path
        self.file = file
        self.isVerifying = verifying
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else {
            throw .noFile(at: path)
        }
        guard !isDirectory.boolValue else {
            throw LogError(.unreadable, path: path, "is a folder, not a log")
        }
        guard FileManager.default.isReadableFile(atPath: file) else {
            throw LogError(.unreadable, path: path, "permission denied")
        }
        let header = LogFileHeader(path: file)
        if let truncation = header?.truncation { throw truncation }
        let missingWAL = header?.isMissingItsWAL ?? false
        do {
            database = try Self.openReadOnly(file)
            formatVersion = try database.read { db in
                try LogSchema.validate(db, path: path, allowEmpty: false, missingWAL: missingWAL)
                return try LogSchema.version(of: db)
            }
        } catch {
            throw Self.logError(error, path: path)
        }
    }

    /// Opens `path` read-only; a WAL-mode file without its `-wal` is opened as immutable so
    /// that reading it creates no file beside it. Where SQLite takes no URIs, the plain path.
    static func openReadOnly(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        if let header = LogFileHeader(path: path), header.isMissingItsWAL,
            let database = try? DatabaseQueue(path: header.immutableURI, configuration: configuration)
        {
            return database
        }
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Every session, in order; a session whose stored row does not match its checksum is
    /// damage, named.
    public func sessions() throws(LogError) -> [SessionSummary] {
        try sessions(allowingDamage: false)
    }

    /// Every session, in order; with `allowingDamage`, a session whose row does not match its
    /// checksum is returned marked (``SessionSummary/rowCheck``) rather than thrown: for
    /// `check`, which reports every one.
    package func sessions(allowingDamage: Bool) throws(LogError) -> [SessionSummary] {
        let all = try allSessions(allowingDamage: allowingDamage)
        if !allowingDamage {
            if isVerifying, let damaged = all.first(where: { $0.rowCheck == .mismatch }) { throw mismatch(of: damaged) }
            try verifyGapRows(of: all)
        }
        return all
    }

    private func mismatch(of session: SessionSummary) -> LogError {
        .damage(in: path, "session \(session.label): the stored session row does not match its checksum", session: session.number)
    }

    /// Every session, or only session `number` when given: a follower re-reads one session's
    /// row, not every session's counts.
    ///
    /// A session's events are counted without reading them: its steps from the first to the
    /// last, less those its recorded gaps cover. `count(*)` would read every event of the log (a
    /// 1,000,000-step log: 0.16 s of the 0.17 s `rewind sessions` took); the bounds are two
    /// index lookups a session. Steps missing without a recorded gap (damage) are what `check`
    /// and any reader that reaches them report.
    func allSessions(allowingDamage: Bool = false, only number: Int? = nil) throws(LogError) -> [SessionSummary] {
        let stored = LogSchema.columns[0].columns.map { "s.\($0)" }.joined(separator: ", ")
        let checksum = formatVersion >= 2 ? "s.checksum" : "NULL AS checksum"
        let checksumIndex = LogSchema.columns[0].columns.count
        // A session's steps are rows of `event` (formats 1 and 2) or blocks (format 3): its
        // bounds and last time come from whichever it has, each one index lookup.
        let blocks = formatVersion >= LogSchema.blockFormatVersion
        let firstBlock = blocks ? "(SELECT min(first_step) FROM event_block b WHERE b.session_id = s.id)" : "NULL"
        let lastBlock = blocks ? "(SELECT last_step FROM event_block b WHERE b.session_id = s.id ORDER BY first_step DESC LIMIT 1)" : "NULL"
        let lastBlockTime = blocks ? "(SELECT last_time FROM event_block b WHERE b.session_id = s.id ORDER BY first_step DESC LIMIT 1)" : "NULL"
        // Identity and metadata (format 4) sit in a row of their own beside the session's.
        let identified = formatVersion >= LogSchema.identityFormatVersion
        let meta = identified ? ", " + SessionMetaRow.selection : ""
        let metaJoin = identified ? "LEFT JOIN session_meta m ON m.session_id = s.id" : ""
        return try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    WITH bounds AS (
                        SELECT s.id AS id,
                               coalesce((SELECT min(step) FROM event e WHERE e.session_id = s.id), \(firstBlock)) AS first_step,
                               coalesce((SELECT max(step) FROM event e WHERE e.session_id = s.id), \(lastBlock)) AS last_step,
                               coalesce((SELECT time FROM event e WHERE e.session_id = s.id ORDER BY step DESC LIMIT 1), \(lastBlockTime))
                                   AS last_time
                        FROM session s \(number == nil ? "" : "WHERE s.id = ?"))
                    SELECT \(stored), \(checksum),
                           coalesce(b.last_step - b.first_step + 1
                             - (SELECT coalesce(sum(max(0, min(g.last_step, b.last_step) - max(g.first_step, b.first_step) + 1)), 0)
                                FROM gap g WHERE g.session_id = s.id), 0) AS event_count,
                           b.first_step AS first_step, b.last_step AS last_step, b.last_time AS last_time,
                           (SELECT g.last_step FROM gap g WHERE g.session_id = s.id AND g.first_step = 1 AND g.reason = ?)
                               AS not_kept_through\(meta)
                    FROM session s JOIN bounds b ON b.id = s.id \(metaJoin) ORDER BY s.id
                    """, arguments: StatementArguments(number.map { [$0] } ?? []) + [RecordingGap.notKeptReason]
            ).map { row in
                let rowCheck = Self.check(row, table: "session", columns: checksumIndex)
                do {
                    return try Self.summary(of: row, rowCheck: rowCheck)
                } catch  where rowCheck == .mismatch || allowingDamage {
                    // A damaged row, or one whose events hold steps or times no recorder
                    // writes, may not even decode: what is left of it is listed, marked.
                    let number = (row["id"] as DatabaseValue).storage.int64.map(Int.init) ?? 0
                    let lastStep = ((try? row.stored("last_step") as Int?) ?? nil).map { min(max(0, $0), LogBounds.maximumStep) } ?? 0
                    return SessionSummary(
                        number: number, name: try? row.stored("name"), flow: (try? row.stored("flow")) ?? "",
                        startedAt: Date(timeIntervalSince1970: 0), endedAt: nil, formatVersion: (try? row.stored("format_version")) ?? 0,
                        schemaVersion: 0, eventCount: (try? row.stored("event_count")) ?? 0, lastStep: lastStep,
                        lastTime: nil, redactedPaths: (try? row.stored("redacted_paths")).map { SQLiteSink.paths(fromJSON: $0).sorted() } ?? [],
                        rowCheck: rowCheck, damage: Self.logError(error, path: path, session: number))
                }
            }
        }
    }

    /// The summary of a session `row` as ``allSessions()`` reads it.
    private static func summary(of row: Row, rowCheck: RowCheck) throws -> SessionSummary {
        let number: Int = try row.stored("id")
        let lastStep: Int? = try row.stored("last_step")
        try LogBounds.checkSteps(first: try row.stored("first_step"), last: lastStep, of: number)
        let meta = try SessionMetaRow.decode(from: row, sessionID: Int64(number))
        return SessionSummary(
            number: number, name: try row.stored("name"), flow: try row.stored("flow"),
            startedAt: try LogBounds.date(try row.stored("started_at"), "the start of session #\(number)"),
            endedAt: try (try row.stored("ended_at") as Double?).map { try LogBounds.date($0, "the end of session #\(number)") },
            formatVersion: try row.stored("format_version"), schemaVersion: try row.stored("schema_version"),
            eventCount: try row.stored("event_count"), lastStep: lastStep ?? 0,
            lastTime: try (try row.stored("last_time") as Double?).map { try LogBounds.date($0, "the last time of session #\(number)") },
            redactedPaths: SQLiteSink.paths(fromJSON: try row.stored("redacted_paths")).sorted(),
            rowCheck: rowCheck, id: meta?.uuid, metadata: meta?.metadata,
            notKept: (try row.stored("not_kept_through") as Int?).map { 1...max(1, $0) }
        )
    }

    /// The session that `selector` names, by number or name; nil picks the only session.
    ///
    /// Only the session chosen is checked: another's damaged row does not hide it.
    public func session(_ selector: String?) throws(LogError) -> SessionSummary {
        try session(selector, allowingDamage: false)
    }

    /// The same; with `allowingDamage`, a session whose row does not match its checksum is
    /// returned, marked, rather than thrown.
    package func session(_ selector: String?, allowingDamage: Bool) throws(LogError) -> SessionSummary {
        // Every session is listed, damaged or not, so that only the chosen one's damage counts.
        let chosen = try choose(selector, among: allSessions(allowingDamage: true))
        guard !allowingDamage else { return chosen }
        return try checked(chosen)
    }

    /// `session`, unless its row or one of its gap markers does not match its checksum, or it
    /// could not be read whole.
    func checked(_ session: SessionSummary) throws(LogError) -> SessionSummary {
        if isVerifying, session.rowCheck == .mismatch { throw mismatch(of: session) }
        if let damage = session.damage { throw damage }
        try verifyGapRows(of: [session])
        return session
    }

    private func choose(_ selector: String?, among all: [SessionSummary]) throws(LogError) -> SessionSummary {
        do {
            return try SessionSelection.choose(selector, among: all, store: "log") { $0.map(\.label).joined(separator: ", ") }
        } catch {
            throw LogError(.noSuchSession, path: path, error.message)
        }
    }

    /// The events of steps `range` of a session, in order.
    public func events(of session: SessionSummary, steps range: ClosedRange<Int>) throws(LogError) -> [LoggedEvent] {
        try read(session: session.number, step: range.count == 1 ? range.lowerBound : nil) { db in
            var events: [LoggedEvent] = []
            try checkedEventRows(db, of: session, steps: range) { row in
                events.append(try decodedEvent(from: row, of: session))
                return true
            }
            return events
        }
    }

    /// The gaps of a session: steps that the recorder could not write.
    public func gaps(of session: SessionSummary) throws(LogError) -> [LoggedGap] {
        try gaps(of: session, allowingDamage: false)
    }

    /// The same; with `allowingDamage`, a gap whose row does not match its checksum is
    /// returned, marked in ``LoggedGap/rowCheck``, rather than thrown: for `check`.
    package func gaps(of session: SessionSummary, allowingDamage: Bool) throws(LogError) -> [LoggedGap] {
        try read(session: session.number) { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(gapColumns) FROM gap WHERE session_id = ? ORDER BY first_step
                    """, arguments: [session.number]
            ).map { row in
                let rowCheck = Self.check(row, table: "gap", columns: LogSchema.columns[2].columns.count)
                if !allowingDamage { try verifyGap(row, of: session) }
                do {
                    let first: Int = try row.stored("first_step"), last: Int = try row.stored("last_step")
                    guard first <= last else {
                        throw LogError.damage(in: path, "a gap of session \(session.number) ends before it starts", session: session.number)
                    }
                    try LogBounds.checkSteps(first: first, last: last, of: session.number)
                    return LoggedGap(steps: first...last, reason: try row.stored("reason"), rowCheck: rowCheck)
                } catch  where rowCheck == .mismatch {
                    // A damaged row may not even decode: it is listed as an empty marker, marked.
                    return LoggedGap(steps: 0...0, reason: "(unreadable)", rowCheck: .mismatch)
                }
            }
        }
    }

    /// Runs `body` in a read transaction, turning every failure into a ``LogError`` that
    /// names the session (and step) being read, when there is one.
    func read<T>(session: Int? = nil, step: Int? = nil, _ body: (Database) throws -> T) throws(LogError) -> T {
        do {
            return try database.read(body)
        } catch {
            throw Self.logError(error, path: path, session: session, step: step)
        }
    }

    /// `error`, met reading the log at `path` (at `step` of `session`, when known), as a
    /// ``LogError`` that keeps it as its underlying error.
    static func logError(_ error: any Error, path: String, session: Int? = nil, step: Int? = nil) -> LogError {
        switch error {
        case let error as LogError:
            return error
        case let error as DatabaseError:
            return LogSchema.describe(error, path: path)
        case let error as SessionMetaRow.Malformed:
            return .damage(in: path, "session #\(session ?? 0)'s identity row \(error.reason)", session: session, underlying: error)
        case let error as StoredValueError:
            return .damage(in: path, "a stored value has the wrong type (\(error))", session: session, step: step, underlying: error)
        case is RowDecodingError:
            // GRDB's own text dumps the whole row, which may span lines and hold whole states.
            return .damage(in: path, "a stored value has the wrong type", session: session, step: step, underlying: error)
        case let error as JSONParseError:
            return .damage(in: path, "a stored value is not valid JSON (\(error))", session: session, step: step, underlying: error)
        case let error as JSONPatchError:
            return .damage(in: path, "a stored patch does not apply (\(error))", session: session, step: step, underlying: error)
        default:
            return .damage(in: path, "\(error)", session: session, step: step, underlying: error)
        }
    }

    /// The event a row read with ``eventColumns`` holds; without `parsingActions`, its action
    /// is `null` and it has no outputs or effects, for readers that want only states (`find`,
    /// `history`): parsing them was a fifth of a scan. A step of a session written before
    /// format 5 has its effects not recorded (nil).
    static func event(from row: StoredEventRow, of session: SessionSummary, parsingActions: Bool = true) throws -> LoggedEvent {
        let columns = EventColumn.self
        var outputValues: [JSONValue] = []
        if parsingActions, case let .array(values)? = try row.optionalJSON(columns.outputs) {
            outputValues = values
        }
        var effects: RecordedEffects?
        if session.recordsEffects {
            effects = RecordedEffects()
            if parsingActions, let stored = try row.effects() { effects = try RecordedEffects(json: stored) }
        }
        let step = try row.int(columns.step)
        return LoggedEvent(
            step: step,
            time: try LogBounds.date(try row.double(columns.time), "the time of step \(step)"),
            origin: try row.text(columns.origin),
            actionName: try row.text(columns.actionType),
            action: parsingActions ? try row.json(columns.action) : .null,
            cause: try row.optionalInt(columns.cause),
            outputs: outputValues,
            effects: effects,
            digest: StateDigest(databaseValue: Int64(try row.int(columns.digest))),
            keyframe: try row.optionalJSON(columns.keyframe),
            patch: try row.optionalPatch(columns.patch)
        )
    }

    /// Where each column is among ``eventColumns``, looked up once.
    enum EventColumn {
        static let sessionID = index("session_id"), step = index("step"), time = index("time"), origin = index("origin"), actionType = index("action_type")
        static let action = index("action"), cause = index("cause"), outputs = index("outputs"), digest = index("digest")
        static let keyframe = index("keyframe"), patch = index("patch")

        private static func index(_ name: String) -> Int {
            guard let index = LogSchema.columns[1].columns.firstIndex(of: name) else { preconditionFailure("no event column \(name)") }
            return index
        }
    }
}
