#if Servers
import Foundation
import PostgresNIO
import RewindCore
import RewindLog

extension TeamStore {
    /// The key of the transaction lock that one writer of session `id` at a time holds (a push,
    /// a collector's upload): the UUID's first 8 bytes, the same in every process.
    static func lockKey(_ id: UUID) -> Int64 {
        withUnsafeBytes(of: id.uuid) { $0.loadUnaligned(as: Int64.self) }
    }

    /// Writes `copy`'s session row, with the bounds its summary gives (no block, no gap).
    func insertSession(_ copy: StoredSessionCopy, on connection: PostgresConnection) async throws {
        let summary = copy.summary
        let metadata = copy.metadata
        let id = copy.id
        let tags = String(decoding: try JSONSerialization.data(withJSONObject: metadata.tags, options: [.sortedKeys]), as: UTF8.self)
        let startedAt = summary.startedAt.timeIntervalSince1970
        let endedAt = summary.endedAt?.timeIntervalSince1970
        let lastTime = summary.lastTime?.timeIntervalSince1970
        try await connection.query(
            """
            INSERT INTO rewind_session (uuid, name, flow, started_at, ended_at, format_version, schema_version, initial_state,
                initial_digest, redacted_paths, app, app_version, app_build, device, os, origin, tags, last_step, event_count, last_time)
            VALUES (\(id), \(summary.name), \(summary.flow), \(startedAt), \(endedAt), \(summary.formatVersion), \(summary.schemaVersion),
                \(copy.initialState), \(copy.initialDigest), \(copy.redactedPaths), \(metadata.app), \(metadata.appVersion),
                \(metadata.appBuild), \(metadata.device), \(metadata.os), \(metadata.origin?.rawValue), \(tags)::jsonb,
                \(summary.lastStep), \(summary.eventCount), \(lastTime))
            """, logger: logger)
    }
}
#endif
