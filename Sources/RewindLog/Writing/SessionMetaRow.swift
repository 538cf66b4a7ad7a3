import Foundation
import GRDB
import RewindCore
import RewindJSON

/// A session's identity and metadata as the log stores them (`session_meta`, format 4): a
/// row beside the session's, under a checksum of its own, so that the session row and its
/// checksum stay as every earlier format wrote them.
struct SessionMetaRow: Equatable {
    /// The columns, in the order the checksum takes them.
    static let columns = ["session_id", "uuid", "app", "app_version", "app_build", "device", "os", "origin", "tags"]

    var sessionID: Int64
    var uuid: UUID
    var metadata: SessionMetadata

    /// The tags as stored: a JSON object of strings, keys sorted.
    var tagsJSON: String {
        JSONValue.object(JSONObject(metadata.tags.map { ($0.key, JSONValue.string($0.value)) })).canonicalString
    }

    var checksum: Int64 {
        var checksum = RowChecksum(table: "session_meta")
        checksum.add(sessionID)
        checksum.add(text: uuid.uuidString)
        checksum.add(text: metadata.app)
        checksum.add(text: metadata.appVersion)
        checksum.add(text: metadata.appBuild)
        checksum.add(text: metadata.device)
        checksum.add(text: metadata.os)
        checksum.add(text: metadata.origin?.rawValue)
        checksum.add(text: tagsJSON)
        return checksum.value
    }

    func insert(_ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO session_meta (session_id, uuid, app, app_version, app_build, device, os, origin, tags, checksum)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                sessionID, uuid.uuidString, metadata.app, metadata.appVersion, metadata.appBuild, metadata.device, metadata.os,
                metadata.origin?.rawValue, tagsJSON, checksum,
            ]
        )
    }

    /// Rewrites the row's tags and checksum.
    func updateTags(_ db: Database) throws {
        try db.execute(
            sql: "UPDATE session_meta SET tags = ?, checksum = ? WHERE session_id = ?", arguments: [tagsJSON, checksum, sessionID])
    }

    /// The row as a reader finds it in a row with the columns `meta_uuid`, `meta_app`, …,
    /// `meta_checksum` (a join with `session`), checked; nil when the session has none.
    ///
    /// - Throws: ``StoredValueError`` or ``JSONParseError`` for values no writer stores, and
    ///   `Mismatch` when the values do not match the checksum.
    static func decode(from row: Row, sessionID: Int64) throws -> SessionMetaRow? {
        guard let text: String = try row.stored("meta_uuid") else { return nil }
        guard let uuid = UUID(uuidString: text) else { throw Malformed(reason: "holds no UUID") }
        var tags: [String: String] = [:]
        guard case let .object(object) = try JSONValue(parsing: try row.stored("meta_tags") as String) else {
            throw Malformed(reason: "holds tags that are not a JSON object")
        }
        for (key, value) in zip(object.keys, object.values) {
            guard case let .string(text) = value else { throw Malformed(reason: "holds a tag that is not a string") }
            tags[key] = text
        }
        let decoded = SessionMetaRow(
            sessionID: sessionID, uuid: uuid,
            metadata: SessionMetadata(
                app: try row.stored("meta_app"), appVersion: try row.stored("meta_app_version"),
                appBuild: try row.stored("meta_app_build"), device: try row.stored("meta_device"), os: try row.stored("meta_os"),
                origin: (try row.stored("meta_origin") as String?).map(SessionMetadata.Origin.init(rawValue:)), tags: tags)
        )
        // The stored text is checked as stored: a row whose UUID was written in lowercase by
        // hand, or whose tags are not in canonical order, is not one a writer wrote.
        var checksum = RowChecksum(table: "session_meta")
        checksum.add(sessionID)
        for column in columns.dropFirst() { checksum.add(row["meta_\(column)"] as DatabaseValue) }
        guard checksum.value == (try row.stored("meta_checksum") as Int64) else { throw Malformed(reason: "does not match its checksum") }
        return decoded
    }

    /// The columns of `session_meta` as `decode(from:sessionID:)` reads them, from a table
    /// aliased `m`.
    static let selection = (columns.dropFirst() + ["checksum"]).map { "m.\($0) AS meta_\($0)" }.joined(separator: ", ")

    /// Why a stored row is not one a writer wrote: `does not match its checksum`.
    struct Malformed: Error, CustomStringConvertible {
        var reason: String
        var description: String { "the identity row \(reason)" }
    }
}
