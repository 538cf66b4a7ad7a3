import Foundation
import GRDB
import RewindCore

extension LogReader {
    /// The sessions of the log that meet `filter`, newest first, after `cursor`, at most
    /// `limit`: ``SessionStore/sessions(matching:after:limit:)`` of a log.
    ///
    /// The log has no index on the start (its schema is fixed per format), so each page sorts
    /// the sessions' start and identity. The flow, start, app version and origin are compared
    /// in SQL, and without a tag to compare SQLite keeps only the `limit + 1` newest as it
    /// reads (its top-N sort: a page of 100,000 sessions through the collector took 126 ms,
    /// against 344 ms sorting them all; `rewind bench --only sessions`); tags are read from each metadata row, checked against its checksum, in
    /// order until the page is full. The costly part of a summary (two index lookups a
    /// session) is paid for the page's sessions alone, each checked as every reader checks it.
    /// Sessions without an identity (format 3 or older) have no place in the order.
    package func sessionPage(matching filter: SessionFilter, after cursor: SessionPage.Cursor?, limit: Int) throws(LogError) -> SessionPage {
        let limit = max(1, min(limit, SessionPage.maximumSize))
        guard formatVersion >= LogSchema.identityFormatVersion else { return SessionPage(sessions: [], next: nil) }
        var conditions: [String] = []
        var arguments = StatementArguments()
        if let cursor {
            conditions.append("(s.started_at < ? OR (s.started_at = ? AND m.uuid < ?))")
            arguments += [cursor.startedAt, cursor.startedAt, cursor.id.uuidString]
        }
        for (column, value) in [("s.flow", filter.flow), ("m.app_version", filter.appVersion), ("m.origin", filter.origin)] {
            guard let value else { continue }
            conditions.append("\(column) = ?")
            arguments += [value]
        }
        if let since = filter.since {
            conditions.append("s.started_at >= ?")
            arguments += [since.timeIntervalSince1970]
        }
        let byTags = !filter.tags.isEmpty || filter.reportedOnly
        let sql = """
            SELECT s.id AS id, s.flow AS flow, s.started_at AS started_at\(byTags ? ", " + SessionMetaRow.selection : "")
            FROM session s JOIN session_meta m ON m.session_id = s.id
            \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
            ORDER BY s.started_at DESC, m.uuid DESC\(byTags ? "" : " LIMIT \(limit + 1)")
            """
        let chosen: [Int] = try read { db in
            var chosen: [Int] = []
            let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while chosen.count <= limit, let row = try rows.next() {
                let number: Int = try row.stored("id")
                guard byTags else {
                    chosen.append(number)
                    continue
                }
                let meta: SessionMetaRow?
                do {
                    meta = try SessionMetaRow.decode(from: row, sessionID: Int64(number))
                } catch {
                    throw LogError.damage(in: path, "session #\(number)'s \(error)", session: number)
                }
                guard let meta else { continue }
                let light = SessionSummary(
                    number: number, name: nil, flow: try row.stored("flow"),
                    startedAt: Date(timeIntervalSince1970: try row.stored("started_at")), endedAt: nil, formatVersion: formatVersion,
                    schemaVersion: 0, eventCount: 0, lastStep: 0, lastTime: nil, redactedPaths: [], id: meta.uuid, metadata: meta.metadata)
                if filter.matches(light) { chosen.append(number) }
            }
            return chosen
        }
        var sessions: [SessionSummary] = []
        for number in chosen.prefix(limit) {
            guard let summary = try allSessions(allowingDamage: true, only: number).first else { continue }
            sessions.append(try checked(summary))
        }
        return SessionPage(sessions: sessions, next: chosen.count > limit ? sessions.last.flatMap(SessionPage.Cursor.init(after:)) : nil)
    }
}
