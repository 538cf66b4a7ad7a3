#if Servers
import PostgresNIO
import RewindLog
import RewindUpload

extension TeamStore {
    /// The schema this code writes and the newest it reads, kept in `rewind_store`.
    public static let schemaVersion = 1

    /// Each version's statements, in order; version N runs `migrations[N - 1]`.
    /// Documented in docs/team-store.md.
    static let migrations: [[PostgresQuery]] = [
        [
            "CREATE TABLE rewind_store (key text PRIMARY KEY, value text NOT NULL)",
            """
            CREATE TABLE rewind_session (
                uuid uuid PRIMARY KEY,
                name text,
                flow text NOT NULL,
                started_at double precision NOT NULL,
                ended_at double precision,
                format_version integer NOT NULL,
                schema_version integer NOT NULL,
                initial_state text NOT NULL,
                initial_digest bigint NOT NULL,
                redacted_paths text NOT NULL,
                app text,
                app_version text,
                app_build text,
                device text,
                os text,
                origin text,
                tags jsonb NOT NULL DEFAULT '{}',
                last_step bigint NOT NULL,
                event_count bigint NOT NULL,
                last_time double precision,
                pushed_at timestamptz NOT NULL DEFAULT now()
            )
            """,
            "CREATE INDEX rewind_session_flow ON rewind_session (flow, started_at)",
            "CREATE INDEX rewind_session_started ON rewind_session (started_at)",
            "CREATE INDEX rewind_session_version ON rewind_session (app_version, started_at)",
            "CREATE INDEX rewind_session_origin ON rewind_session (origin, started_at)",
            "CREATE INDEX rewind_session_tags ON rewind_session USING gin (tags jsonb_path_ops)",
            """
            CREATE TABLE rewind_block (
                session uuid NOT NULL REFERENCES rewind_session (uuid) ON DELETE CASCADE,
                first_step bigint NOT NULL,
                last_step bigint NOT NULL,
                keyframe boolean NOT NULL,
                last_time double precision NOT NULL,
                size integer NOT NULL,
                checksum bigint NOT NULL,
                data bytea NOT NULL,
                PRIMARY KEY (session, first_step)
            )
            """,
            """
            CREATE TABLE rewind_gap (
                session uuid NOT NULL REFERENCES rewind_session (uuid) ON DELETE CASCADE,
                first_step bigint NOT NULL,
                last_step bigint NOT NULL,
                reason text NOT NULL,
                PRIMARY KEY (session, first_step)
            )
            """,
        ]
    ]

    /// Brings the store's schema to ``schemaVersion`` in one transaction on `connection`,
    /// under a lock that keeps two pushers (or collectors) from creating it at once; refuses a
    /// newer one. Once, when the store is opened: never on a request's way.
    static func migrate(on connection: PostgresConnection, location: String, logger: Logger) async throws {
        try await transaction(on: connection, logger: logger) { connection in
            // Any 64-bit key the team's other applications do not use: "RWND" and 1.
            try await connection.query("SELECT pg_advisory_xact_lock(1381453380001)", logger: logger)
            var version = 0
            let exists = try await connection.query("SELECT to_regclass('rewind_store') IS NOT NULL", logger: logger)
            for try await present in exists.decode(Bool.self) where present {
                let rows = try await connection.query("SELECT value FROM rewind_store WHERE key = 'schema_version'", logger: logger)
                for try await value in rows.decode(String.self) { version = Int(value) ?? Int.max }
            }
            guard version <= Self.schemaVersion else {
                throw StoreError(
                    .newerSchema, location: location,
                    "a store of a newer Rewind (schema \(version == Int.max ? "unknown" : String(version)); this rewind reads up to \(Self.schemaVersion))")
            }
            for next in (version + 1)...max(version + 1, Self.schemaVersion) where next <= Self.schemaVersion {
                for statement in Self.migrations[next - 1] {
                    try await connection.query(statement, logger: logger)
                }
                let text = String(next)
                try await connection.query(
                    "INSERT INTO rewind_store (key, value) VALUES ('schema_version', \(text)) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                    logger: logger)
            }
        }
    }
}
#endif
