import Foundation
import GRDB
import RewindCore

/// The log's SQLite schema, its version and its migrations. Documented in docs/log-format.md.
enum LogSchema {
    /// `PRAGMA application_id` of every Rewind log: "RWND" in ASCII.
    static let applicationID: Int32 = 0x5257_4E44
    /// The format this code writes and the newest it reads; kept in `PRAGMA user_version`.
    /// Version 2 added a checksum to every row; rows of version 1 are read as unchecked.
    /// Version 3 stores a session's steps in compressed blocks (`event_block`); the sessions
    /// written before keep their rows in `event`. Version 4 gives every session an identity
    /// and metadata (`session_meta`); sessions written before get an identity as the log is
    /// migrated. Version 5 records what each step asked for (a record's `effects`), the same
    /// tables: the sessions written before have their effects not recorded. Version 6 takes an
    /// array's digest as a sum of terms, one an element (`StateDigest.Rule.summed`), the same
    /// tables: the sessions written before keep their chained digests.
    static let formatVersion = 6

    /// The first format whose sessions store their steps in blocks.
    static let blockFormatVersion = 3

    /// The first format whose sessions have an identity and metadata (`session_meta`).
    static let identityFormatVersion = 4

    /// The first format whose sessions record each step's effects (``RecordedEffects``).
    static let effectsFormatVersion = 5

    /// The first format whose sessions' digests sum their arrays' elements
    /// (`StateDigest.Rule.summed`); a session that records no effects is written in format 4,
    /// whose digests chain them (`SessionHeader.digestRule`).
    static let summedDigestsFormatVersion = 6

    /// The columns of each table, in the order checksums take them (the `checksum` column,
    /// added by version 2, last).
    static let columns: [(table: String, columns: [String])] = [
        (
            "session",
            [
                "id", "name", "flow", "started_at", "ended_at", "format_version", "schema_version", "initial_state",
                "initial_digest", "redacted_paths",
            ]
        ),
        ("event", ["session_id", "step", "time", "origin", "action_type", "action", "cause", "outputs", "digest", "keyframe", "patch"]),
        ("gap", ["session_id", "first_step", "last_step", "reason"]),
        ("event_block", ["session_id", "first_step", "last_step", "keyframe", "last_time", "size", "data"]),
        ("session_meta", SessionMetaRow.columns),
    ]

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
            try db.execute(sql: "PRAGMA user_version = 1")
        }
        migrator.registerMigration("v2") { db in
            // Rows written before this migration keep a NULL checksum: read as unchecked.
            for table in ["session", "event", "gap"] {
                try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN checksum INTEGER")
            }
            try db.execute(sql: "PRAGMA user_version = 2")
        }
        migrator.registerMigration("v3") { db in
            // `checksum` before `data`: a reader that asks for it then stops before the blob's
            // overflow pages. The view reads blocks through `sqlar_uncompress`, a function of
            // the `sqlite3` shell: it shows every step, of either kind of session, by hand.
            try db.execute(
                sql: """
                    CREATE TABLE event_block (
                        session_id INTEGER NOT NULL REFERENCES session(id),
                        first_step INTEGER NOT NULL,
                        last_step INTEGER NOT NULL,
                        keyframe INTEGER NOT NULL,
                        last_time REAL NOT NULL,
                        size INTEGER NOT NULL,
                        checksum INTEGER NOT NULL,
                        data BLOB NOT NULL,
                        PRIMARY KEY (session_id, first_step)
                    ) WITHOUT ROWID;
                    CREATE VIEW events AS
                        SELECT session_id, step, time, origin, action_type, action, cause, outputs, digest, keyframe, patch
                        FROM event
                        UNION ALL
                        SELECT b.session_id, b.first_step + r.key, json_extract(r.value, '$[0]') / 1e6, json_extract(r.value, '$[2]'),
                               json_extract(r.value, '$[3]'), json_extract(r.value, '$[4]'), json_extract(r.value, '$[7]'),
                               json_extract(r.value, '$[8]'), json_extract(r.value, '$[1]'), json_extract(r.value, '$[6]'),
                               json_extract(r.value, '$[5]')
                        FROM event_block AS b, json_each(sqlar_uncompress(b.data, b.size)) AS r;
                    """)
            try db.execute(sql: "PRAGMA user_version = 3")
        }
        migrator.registerMigration("v4") { db in
            // One row a session, written with it; `uuid` is unique so that a copy of a session
            // (import, pull) is found by it. Tags are a JSON object of strings.
            try db.execute(
                sql: """
                    CREATE TABLE session_meta (
                        session_id INTEGER PRIMARY KEY REFERENCES session(id),
                        uuid TEXT NOT NULL UNIQUE,
                        app TEXT,
                        app_version TEXT,
                        app_build TEXT,
                        device TEXT,
                        os TEXT,
                        origin TEXT,
                        tags TEXT NOT NULL DEFAULT '{}',
                        checksum INTEGER NOT NULL
                    );
                    """)
            // Sessions recorded before get an identity now, and no metadata: none was recorded.
            for id in try Int64.fetchAll(db, sql: "SELECT id FROM session ORDER BY id") {
                try SessionMetaRow(sessionID: id, uuid: UUID(), metadata: SessionMetadata()).insert(db)
            }
            try db.execute(sql: "PRAGMA user_version = 4")
        }
        migrator.registerMigration("v5") { db in
            // Records gain `effects`, their tenth element: the view shows it, NULL for the rows
            // of `event` and the records written before, which have none recorded.
            try db.execute(
                sql: """
                    DROP VIEW events;
                    CREATE VIEW events AS
                        SELECT session_id, step, time, origin, action_type, action, cause, outputs, NULL AS effects, digest, keyframe, patch
                        FROM event
                        UNION ALL
                        SELECT b.session_id, b.first_step + r.key, json_extract(r.value, '$[0]') / 1e6, json_extract(r.value, '$[2]'),
                               json_extract(r.value, '$[3]'), json_extract(r.value, '$[4]'), json_extract(r.value, '$[7]'),
                               json_extract(r.value, '$[8]'), json_extract(r.value, '$[9]'), json_extract(r.value, '$[1]'),
                               json_extract(r.value, '$[6]'), json_extract(r.value, '$[5]')
                        FROM event_block AS b, json_each(sqlar_uncompress(b.data, b.size)) AS r;
                    """)
            try db.execute(sql: "PRAGMA user_version = 5")
        }
        migrator.registerMigration("v6") { db in
            // The same tables; sessions written from now on sum their arrays' digests. A rewind
            // that reads up to format 5 would check them by the chained rule and call every
            // such session damaged, so the log says it is newer than that.
            try db.execute(sql: "PRAGMA user_version = 6")
        }
        return migrator
    }

    /// Checks that the tables and columns of a Rewind log of `version` are all there, so that a
    /// file with Rewind's id but another shape is named as damaged, not met later as a failing
    /// query.
    static func validateTables(_ db: Database, path: String, version: Int) throws {
        for (table, expected) in columns {
            if table == "event_block", version < blockFormatVersion { continue }
            if table == "session_meta", version < identityFormatVersion { continue }
            let present = Set(try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { row -> String in row["name"] })
            guard !present.isEmpty else {
                throw LogError.damage(in: path, "the table \(table) is missing")
            }
            let wanted = version >= 2 || table == "session_meta" ? expected + ["checksum"] : expected
            if let missing = wanted.first(where: { !present.contains($0) }) {
                throw LogError.damage(in: path, "the table \(table) has no column \(missing)")
            }
        }
    }

    /// The format version of the log `db` (its `PRAGMA user_version`).
    static func version(of db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
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
        try validateTables(db, path: path, version: version)
        // Born with its tables, a log copied without its `-wal` before a checkpoint shows them
        // and nothing else; a writer takes such a file (`allowEmpty`), a reader names it.
        if missingWAL, !allowEmpty, try Int.fetchOne(db, sql: "SELECT count(*) FROM session") == 0 {
            throw LogError.missingWALOfEmptyLog(path)
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
