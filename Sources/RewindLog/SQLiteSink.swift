import Foundation
import GRDB
import RewindCore
import RewindJSON

/// Writes recorded sessions into a SQLite log: one file, many sessions, WAL while recording.
///
/// The file is created with mode 0600, freed pages are zeroed (`secure_delete`), and
/// ``close()`` folds the write-ahead log back into the file so that a finished log is one
/// self-contained file.
public final class SQLiteSink: RecordingSink {
    /// The log's path.
    public let path: String
    private let database: DatabaseQueue

    /// Opens the log at `path`, creating it when missing; new sessions are added after the
    /// ones it holds.
    public init(path: String) throws(LogError) {
        self.path = path
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                let folder = (path as NSString).deletingLastPathComponent
                let reason = FileManager.default.fileExists(atPath: folder.isEmpty ? "." : folder) ? "permission denied" : "no such folder"
                throw LogError(.cannotWrite, "\(path): cannot create the log (\(reason))")
            }
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA secure_delete = ON")
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
            try database.write { db in try LogSchema.validate(db, path: path, allowEmpty: true) }
            try LogSchema.migrator.migrate(database)
        } catch let error as LogError {
            throw error
        } catch let error as DatabaseError {
            throw LogSchema.describe(error, path: path)
        } catch {
            throw LogError(.unreadable, "\(path): \(error)")
        }
    }

    public func beginSession(_ header: SessionHeader) throws -> Int {
        try database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO session (name, flow, started_at, format_version, schema_version,
                                         initial_state, initial_digest, redacted_paths)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    header.name, header.flow, header.startedAt.timeIntervalSince1970, LogSchema.formatVersion,
                    header.schemaVersion, header.initialState.canonicalString, header.initialDigest.databaseValue,
                    Self.pathsJSON(header.redactedPaths),
                ]
            )
            return Int(db.lastInsertedRowID)
        }
    }

    public func append(
        _ events: [RecordedEvent], gaps: [RecordingGap], redactedPaths: Set<String>, to session: Int
    ) throws {
        try database.write { db in
            let insert = try db.cachedStatement(sql: """
                INSERT INTO event (session_id, step, time, origin, action_type, action, cause, outputs,
                                   digest, keyframe, patch)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for event in events {
                var keyframe: String?, patch: String?
                switch event.state {
                case let .keyframe(value): keyframe = value.canonicalString
                case let .patch(value): patch = value.json.canonicalString
                }
                try insert.execute(arguments: [
                    session, event.step, event.time.timeIntervalSince1970, event.origin, event.actionName,
                    event.action.canonicalString, event.cause,
                    event.outputs.isEmpty ? nil : JSONValue.array(event.outputs).canonicalString,
                    event.digest.databaseValue, keyframe, patch,
                ])
            }
            for gap in gaps {
                try db.execute(
                    sql: "INSERT INTO gap (session_id, first_step, last_step, reason) VALUES (?, ?, ?, ?)",
                    arguments: [session, gap.steps.lowerBound, gap.steps.upperBound, gap.reason]
                )
            }
            if !redactedPaths.isEmpty {
                let known = try String.fetchOne(db, sql: "SELECT redacted_paths FROM session WHERE id = ?", arguments: [session])
                let merged = Self.paths(fromJSON: known ?? "[]").union(redactedPaths)
                try db.execute(
                    sql: "UPDATE session SET redacted_paths = ? WHERE id = ?",
                    arguments: [Self.pathsJSON(merged), session]
                )
            }
        }
    }

    public func endSession(_ session: Int) throws {
        try database.write { db in
            try db.execute(
                sql: """
                    UPDATE session SET ended_at = coalesce(
                        (SELECT max(time) FROM event WHERE session_id = ?1), started_at)
                    WHERE id = ?1
                    """,
                arguments: [session]
            )
        }
    }

    /// Marks a session as finished at `time` rather than at its last step: an import restores
    /// the end time its export recorded.
    public func endSession(_ session: Int, at time: Date) throws {
        try database.write { db in
            try db.execute(
                sql: "UPDATE session SET ended_at = ? WHERE id = ?",
                arguments: [time.timeIntervalSince1970, session]
            )
        }
    }

    /// The log format version this sink writes into every session (`format_version`).
    public static var formatVersion: Int { LogSchema.formatVersion }

    /// Folds the write-ahead log into the file and leaves WAL mode, so the finished log is a
    /// single file that any `sqlite3` can open read-only.
    public func close() throws {
        try database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            try db.execute(sql: "PRAGMA journal_mode = DELETE")
        }
        try database.close()
    }

    static func pathsJSON(_ paths: Set<String>) -> String {
        JSONValue.array(paths.sorted().map(JSONValue.string)).canonicalString
    }

    static func paths(fromJSON text: String) -> Set<String> {
        guard case let .array(values)? = try? JSONValue(parsing: text) else { return [] }
        return Set(values.compactMap { if case let .string(path) = $0 { path } else { nil } })
    }
}

extension RecordingSink where Self == SQLiteSink {
    /// A SQLite log at `path`, created when missing.
    public static func sqlite(path: String) throws(LogError) -> SQLiteSink {
        try SQLiteSink(path: path)
    }
}

extension StateDigest {
    /// The digest as SQLite stores it: the same 64 bits as a signed integer.
    var databaseValue: Int64 { Int64(bitPattern: rawValue) }

    init(databaseValue: Int64) {
        self.init(rawValue: UInt64(bitPattern: databaseValue))
    }
}
