import GRDB

/// A session row as a writer changes it: read and checked against its checksum, changed, and
/// written back whole with a new checksum, so that no update leaves a row its checksum does
/// not cover, and none blesses a row that was damaged before.
///
/// Its own type beside ``SessionSummary``: it is the row's columns as stored (seconds, JSON
/// text, the initial state's digest), which its checksum covers byte for byte; the summary is
/// what a reader made of them, with counts and checks no row holds.
struct SessionRow {
    var id: Int64
    var name: String?
    var flow: String
    var startedAt: Double
    var endedAt: Double?
    var formatVersion: Int64
    var schemaVersion: Int64
    var initialState: String
    var initialDigest: Int64
    var redactedPaths: String

    /// The checksum of the row's values, in the order of `LogSchema.columns`.
    var checksum: Int64 {
        var checksum = RowChecksum(table: "session")
        checksum.add(id)
        checksum.add(text: name)
        checksum.add(text: flow)
        checksum.add(startedAt)
        checksum.add(endedAt)
        checksum.add(formatVersion)
        checksum.add(schemaVersion)
        checksum.add(text: initialState)
        checksum.add(initialDigest)
        checksum.add(text: redactedPaths)
        return checksum.value
    }

    /// The row of session `id`, checked; a row written before checksums is taken as it is.
    static func fetch(_ db: Database, id: Int, path: String) throws -> SessionRow {
        let columns = LogSchema.columns[0].columns.joined(separator: ", ")
        guard let row = try Row.fetchOne(db, sql: "SELECT \(columns), checksum FROM session WHERE id = ?", arguments: [id]) else {
            throw LogError.damage(in: path, "session #\(id) has no row", session: id)
        }
        guard LogReader.check(row, table: "session", columns: LogSchema.columns[0].columns.count) != .mismatch else {
            throw LogError.damage(in: path, "session #\(id): the stored session row does not match its checksum", session: id)
        }
        return SessionRow(
            id: try row.stored("id"), name: try row.stored("name"), flow: try row.stored("flow"),
            startedAt: try row.stored("started_at"), endedAt: try row.stored("ended_at"),
            formatVersion: try row.stored("format_version"), schemaVersion: try row.stored("schema_version"),
            initialState: try row.stored("initial_state"), initialDigest: try row.stored("initial_digest"),
            redactedPaths: try row.stored("redacted_paths")
        )
    }

    /// Writes every value back, with the checksum that covers them.
    func save(_ db: Database) throws {
        try db.execute(
            sql: """
                UPDATE session SET name = ?, flow = ?, started_at = ?, ended_at = ?, format_version = ?, schema_version = ?,
                                   initial_state = ?, initial_digest = ?, redacted_paths = ?, checksum = ?
                WHERE id = ?
                """,
            arguments: [
                name, flow, startedAt, endedAt, formatVersion, schemaVersion, initialState, initialDigest, redactedPaths,
                checksum, id,
            ]
        )
    }
}
