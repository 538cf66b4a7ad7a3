import GRDB

/// The log's SQLite schema, its version and its migrations. Documented in docs/log-format.md.
enum LogSchema {
    /// `PRAGMA application_id` of every Rewind log: "RWND" in ASCII.
    static let applicationID: Int32 = 0x5257_4E44
    /// The format this code writes and the newest it reads; kept in `PRAGMA user_version`.
    static let formatVersion = 1

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE session (
                        id INTEGER PRIMARY KEY,
                        name TEXT,
                        flow TEXT NOT NULL,
                        started_at REAL NOT NULL,
                        ended_at REAL,
                        format_version INTEGER NOT NULL,
                        schema_version INTEGER NOT NULL,
                        initial_state TEXT NOT NULL,
                        initial_digest INTEGER NOT NULL,
                        redacted_paths TEXT NOT NULL DEFAULT '[]'
                    );
                    CREATE TABLE event (
                        session_id INTEGER NOT NULL REFERENCES session(id),
                        step INTEGER NOT NULL,
                        time REAL NOT NULL,
                        origin TEXT NOT NULL,
                        action_type TEXT NOT NULL,
                        action TEXT NOT NULL,
                        cause INTEGER,
                        outputs TEXT,
                        digest INTEGER NOT NULL,
                        keyframe TEXT,
                        patch TEXT,
                        PRIMARY KEY (session_id, step),
                        CHECK ((keyframe IS NULL) <> (patch IS NULL))
                    ) WITHOUT ROWID;
                    CREATE INDEX event_keyframe ON event(session_id, step) WHERE keyframe IS NOT NULL;
                    CREATE TABLE gap (
                        session_id INTEGER NOT NULL REFERENCES session(id),
                        first_step INTEGER NOT NULL,
                        last_step INTEGER NOT NULL,
                        reason TEXT NOT NULL
                    );
                    """)
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            try db.execute(sql: "PRAGMA user_version = \(formatVersion)")
        }
        return migrator
    }

    /// Checks that `db` is a Rewind log this code can read; an empty database passes only when
    /// `allowEmpty` (a file about to become a log).
    ///
    /// - Parameter missingWAL: whether the file is in WAL mode with no `-wal` beside it, so that
    ///   a file without tables is named for what it is: a copy whose data stayed in the `-wal`.
    static func validate(_ db: Database, path: String, allowEmpty: Bool, missingWAL: Bool = false) throws {
        let applicationID: Int32
        let version: Int
        do {
            applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        } catch let error as DatabaseError {
            throw LogSchema.describe(error, path: path)
        }
        if applicationID == 0 && version == 0 {
            let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
            if tables == 0 && allowEmpty { return }
            if tables == 0 && missingWAL { throw LogError.missingWAL(path) }
            throw LogError.notARewindLog(path, tables == 0 ? "an empty database" : "a SQLite database of another application")
        }
        guard applicationID == Self.applicationID else {
            throw LogError.notARewindLog(path, "a SQLite database of another application")
        }
        guard version <= formatVersion else {
            throw LogError.newerLog(path, version: version)
        }
    }

    /// One line for a SQLite error met while opening or reading `path`.
    static func describe(_ error: DatabaseError, path: String) -> LogError {
        switch error.resultCode {
        case .SQLITE_NOTADB:
            return .notADatabase(path, underlying: error)
        case .SQLITE_CORRUPT:
            return LogError(.damaged, path: path, "the log is damaged or truncated (SQLite reports a malformed database)", underlying: error)
        case .SQLITE_CANTOPEN:
            return LogError(.unreadable, path: path, "cannot open the log", underlying: error)
        default:
            return .damage(in: path, error.message ?? "\(error.resultCode)", underlying: error)
        }
    }
}
