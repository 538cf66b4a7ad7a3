import Foundation
import GRDB
import RewindJSON

/// Reads a Rewind log: its sessions, their events, and the state at any step.
///
/// Opens the file read-only: reading never changes it, and works while a recorder writes.
public final class LogReader: Sendable {
    /// The log's path.
    public let path: String
    let database: DatabaseQueue

    /// Opens the log at `path` for reading.
    public init(path: String) throws(LogError) {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .missingFile(path)
        }
        guard !isDirectory.boolValue else {
            throw LogError(.unreadable, "\(path): is a folder, not a log")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw LogError(.unreadable, "\(path): permission denied")
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        let header = LogFileHeader(path: path)
        let missingWAL = header?.isMissingItsWAL ?? false
        do {
            database = try Self.open(path, header: missingWAL ? header : nil, configuration: configuration)
            try database.read { db in try LogSchema.validate(db, path: path, allowEmpty: false, missingWAL: missingWAL) }
        } catch {
            throw Self.logError(error, path: path)
        }
    }

    /// Opens `path` read-only; a WAL-mode file without its `-wal` is opened as immutable so
    /// that reading it creates no file beside it. Where SQLite takes no URIs, the plain path.
    private static func open(_ path: String, header: LogFileHeader?, configuration: Configuration) throws -> DatabaseQueue {
        if let header, let database = try? DatabaseQueue(path: header.immutableURI, configuration: configuration) {
            return database
        }
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Every session, in order.
    public func sessions() throws(LogError) -> [SessionSummary] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT s.id, s.name, s.flow, s.started_at, s.ended_at, s.format_version, s.schema_version,
                       s.redacted_paths,
                       (SELECT count(*) FROM event e WHERE e.session_id = s.id) AS event_count,
                       (SELECT min(step) FROM event e WHERE e.session_id = s.id) AS first_step,
                       (SELECT max(step) FROM event e WHERE e.session_id = s.id) AS last_step,
                       (SELECT time FROM event e WHERE e.session_id = s.id ORDER BY step DESC LIMIT 1) AS last_time
                FROM session s ORDER BY s.id
                """).map { row in
                let number: Int = try row.decode(forColumn: "id")
                let lastStep: Int? = try row.decode(forColumn: "last_step")
                try LogBounds.checkSteps(first: try row.decode(forColumn: "first_step"), last: lastStep, of: number)
                return SessionSummary(
                    number: number, name: try row.decode(forColumn: "name"), flow: try row.decode(forColumn: "flow"),
                    startedAt: try LogBounds.date(try row.decode(forColumn: "started_at"), "the start of session #\(number)"),
                    endedAt: try (try row.decode(forColumn: "ended_at") as Double?).map { try LogBounds.date($0, "the end of session #\(number)") },
                    formatVersion: try row.decode(forColumn: "format_version"), schemaVersion: try row.decode(forColumn: "schema_version"),
                    eventCount: try row.decode(forColumn: "event_count"), lastStep: lastStep ?? 0,
                    lastTime: try (try row.decode(forColumn: "last_time") as Double?).map { try LogBounds.date($0, "the last time of session #\(number)") },
                    redactedPaths: SQLiteSink.paths(fromJSON: try row.decode(forColumn: "redacted_paths")).sorted()
                )
            }
        }
    }

    /// The session that `selector` names, by number or name; nil picks the only session.
    public func session(_ selector: String?) throws(LogError) -> SessionSummary {
        let all = try sessions()
        guard let selector else {
            guard all.count == 1 else {
                let hint = all.isEmpty ? "holds no session" : "holds \(all.count) sessions; choose one with --session NUMBER or NAME"
                throw LogError(.badRequest, "\(path): \(hint)")
            }
            return all[0]
        }
        if let number = Int(selector), let match = all.first(where: { $0.number == number }) {
            return match
        }
        let named = all.filter { $0.name == selector }
        if named.count == 1 { return named[0] }
        if named.count > 1 {
            let numbers = named.map { "#\($0.number)" }.joined(separator: ", ")
            throw LogError(.badRequest, "\(path): \(named.count) sessions are named \(selector) (\(numbers)); choose one by number")
        }
        let available = all.map(\.label).joined(separator: ", ")
        throw LogError(.badRequest, "\(path): no session \(selector) (the log holds \(available.isEmpty ? "none" : available))")
    }

    /// The events of steps `range` of a session, in order.
    public func events(of session: SessionSummary, steps range: ClosedRange<Int>) throws(LogError) -> [LoggedEvent] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT step, time, origin, action_type, action, cause, outputs, digest, keyframe, patch
                FROM event WHERE session_id = ? AND step BETWEEN ? AND ? ORDER BY step
                """, arguments: [session.number, range.lowerBound, range.upperBound]).map { row in
                try Self.event(from: row)
            }
        }
    }

    /// The gaps of a session: steps that the recorder could not write.
    public func gaps(of session: SessionSummary) throws(LogError) -> [LoggedGap] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT first_step, last_step, reason FROM gap WHERE session_id = ? ORDER BY first_step
                """, arguments: [session.number]).map { row in
                let first: Int = try row.decode(forColumn: "first_step"), last: Int = try row.decode(forColumn: "last_step")
                guard first <= last else { throw LogError.damaged(path, "a gap of session \(session.number) ends before it starts") }
                try LogBounds.checkSteps(first: first, last: last, of: session.number)
                return LoggedGap(steps: first...last, reason: try row.decode(forColumn: "reason"))
            }
        }
    }

    /// Runs `body` in a read transaction, turning every failure into a one-line ``LogError``.
    func read<T>(_ body: (Database) throws -> T) throws(LogError) -> T {
        do {
            return try database.read(body)
        } catch {
            throw Self.logError(error, path: path)
        }
    }

    static func logError(_ error: any Error, path: String) -> LogError {
        switch error {
        case let error as LogError:
            return error
        case let error as DatabaseError:
            return LogSchema.describe(error, path: path)
        case let error as RowDecodingError:
            // GRDB's own text dumps the whole row, which may span lines and hold whole states.
            return .damaged(path, "a stored value has the wrong type\(columnName(in: error).map { " (column \($0))" } ?? "")")
        case let error as JSONParseError:
            return .damaged(path, "a stored value is not valid JSON (\(error))")
        case let error as JSONPatchError:
            return .damaged(path, "a stored patch does not apply (\(error))")
        default:
            return .damaged(path, "\(error)")
        }
    }

    /// The column that a decoding error names in its description (`column: "step"`).
    private static func columnName(in error: RowDecodingError) -> String? {
        let text = "\(error)"
        guard let start = text.range(of: "column: \"")?.upperBound,
              let end = text[start...].firstIndex(of: "\"") else { return nil }
        return String(text[start..<end])
    }

    static func event(from row: Row) throws -> LoggedEvent {
        let outputs: String? = try row.decode(forColumn: "outputs")
        var outputValues: [JSONValue] = []
        if let outputs, case let .array(values) = try JSONValue(parsing: outputs) { outputValues = values }
        let keyframe: String? = try row.decode(forColumn: "keyframe")
        let patch: String? = try row.decode(forColumn: "patch")
        let step: Int = try row.decode(forColumn: "step")
        return LoggedEvent(
            step: step,
            time: try LogBounds.date(try row.decode(forColumn: "time"), "the time of step \(step)"),
            origin: try row.decode(forColumn: "origin"),
            actionName: try row.decode(forColumn: "action_type"),
            action: try JSONValue(parsing: try row.decode(forColumn: "action") as String),
            cause: try row.decode(forColumn: "cause"),
            outputs: outputValues,
            digest: StateDigest(databaseValue: try row.decode(forColumn: "digest")),
            keyframe: try keyframe.map { try JSONValue(parsing: $0) },
            patch: try patch.map { try JSONPatch(json: JSONValue(parsing: $0)) }
        )
    }
}
