#if Servers
import Foundation
import PostgresNIO
import RewindCore
import RewindLog
import RewindUpload

extension TeamStore {
    /// The sessions that meet `filter`, oldest first. Their `number` is their place in
    /// this list: by start, then by push (so a log pushed whole keeps its order), then by UUID.
    ///
    /// Every condition is a bound parameter, never SQL text, and each has an index.
    package func sessions(matching filter: SessionFilter = SessionFilter()) async throws(StoreError) -> [SessionSummary] {
        do {
            return try await withConnection { connection in try await self.listing(filter, on: connection) }
        } catch {
            throw Self.describe(error, location: location.description)
        }
    }

    private func listing(_ filter: SessionFilter, on connection: PostgresConnection) async throws(StoreError) -> [SessionSummary] {
        var bindings = PostgresBindings()
        let conditions = Self.conditions(filter, &bindings)
        let sql = """
            SELECT \(Self.summaryColumns)
            FROM rewind_session \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
            ORDER BY started_at, pushed_at, uuid
            """
        let rows = try await run(PostgresQuery(unsafeSQL: sql, binds: bindings), on: connection)
        var sessions: [SessionSummary] = []
        do {
            for try await row in rows {
                sessions.append(try Self.summary(of: row, number: sessions.count + 1))
            }
        } catch {
            throw Self.describe(error, location: location.description)
        }
        return sessions
    }

    /// `filter` as SQL conditions, each value a parameter bound in `bindings`, never SQL text.
    private static func conditions(_ filter: SessionFilter, _ bindings: inout PostgresBindings) -> [String] {
        var conditions: [String] = []
        func bind(_ value: some PostgresNonThrowingEncodable & Sendable) -> String {
            bindings.append(value)
            return "$\(bindings.count)"
        }
        if let flow = filter.flow { conditions.append("flow = \(bind(flow))") }
        if let since = filter.since { conditions.append("started_at >= \(bind(since.timeIntervalSince1970))") }
        if let version = filter.appVersion { conditions.append("app_version = \(bind(version))") }
        if let origin = filter.origin { conditions.append("origin = \(bind(origin))") }
        if !filter.tags.isEmpty {
            let tags = String(decoding: (try? JSONSerialization.data(withJSONObject: filter.tags, options: [.sortedKeys])) ?? Data("{}".utf8), as: UTF8.self)
            conditions.append("tags @> \(bind(tags))::jsonb")
        }
        if filter.reportedOnly { conditions.append("tags ? \(bind(SessionReport.tag))") }
        return conditions
    }

    /// The sessions that meet `filter`, newest first, after `cursor`, at most `limit`: walked
    /// down the index on the start from the cursor, `limit + 1` rows read whatever the page's
    /// place (the `+ 1` says whether an older page follows). `number` is 0: a session's place
    /// would take a count of the sessions before it.
    package func sessions(matching filter: SessionFilter, after cursor: SessionPage.Cursor?, limit: Int) async throws -> SessionPage {
        let limit = max(1, min(limit, SessionPage.maximumSize))
        var bindings = PostgresBindings()
        var conditions = Self.conditions(filter, &bindings)
        if let cursor {
            bindings.append(cursor.startedAt)
            bindings.append(cursor.id)
            conditions.append("(started_at, uuid) < ($\(bindings.count - 1), $\(bindings.count))")
        }
        bindings.append(limit + 1)
        let sql = """
            SELECT \(Self.summaryColumns)
            FROM rewind_session \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
            ORDER BY started_at DESC, uuid DESC LIMIT $\(bindings.count)
            """
        let query = PostgresQuery(unsafeSQL: sql, binds: bindings)
        do {
            let found = try await withConnection { connection in
                var sessions: [SessionSummary] = []
                for try await row in try await self.run(query, on: connection) {
                    sessions.append(try Self.summary(of: row, number: 0))
                }
                return sessions
            }
            let page = Array(found.prefix(limit))
            return SessionPage(sessions: page, next: found.count > limit ? page.last.flatMap(SessionPage.Cursor.init(after:)) : nil)
        } catch {
            throw Self.describe(error, location: location.description)
        }
    }

    /// Keeps `verdict` in session `id`'s tags, in place of an earlier one.
    public func record(_ verdict: ReplayVerdict, for id: UUID) async throws -> Bool {
        let tags = String(decoding: (try? JSONSerialization.data(withJSONObject: verdict.tags, options: [.sortedKeys])) ?? Data("{}".utf8), as: UTF8.self)
        let sql: PostgresQuery = "UPDATE rewind_session SET tags = tags || \(tags)::jsonb WHERE uuid = \(id) RETURNING uuid"
        do {
            return try await withConnection { connection in
                var updated = false
                for try await _ in try await connection.query(sql, logger: self.logger) { updated = true }
                return updated
            }
        } catch {
            throw Self.describe(error, location: location.description)
        }
    }

    /// The columns ``summary(of:number:)`` decodes, in its order.
    static let summaryColumns = """
        uuid, name, flow, started_at, ended_at, format_version, schema_version, redacted_paths, app, app_version, app_build,
        device, os, origin, tags::text, last_step, event_count, last_time
        """

    static func summary(of row: PostgresRow, number: Int) throws -> SessionSummary {
        let columns = try row.decode(
            (UUID, String?, String, Double, Double?, Int, Int, String, String?, String?, String?, String?, String?, String?, String, Int, Int, Double?)
                .self)
        var tags: [String: String] = [:]
        if let object = try JSONSerialization.jsonObject(with: Data(columns.14.utf8)) as? [String: String] { tags = object }
        let redacted = (try? JSONSerialization.jsonObject(with: Data(columns.7.utf8)) as? [String]) ?? []
        return SessionSummary(
            number: number, name: columns.1, flow: columns.2, startedAt: Date(timeIntervalSince1970: columns.3),
            endedAt: columns.4.map(Date.init(timeIntervalSince1970:)), formatVersion: columns.5, schemaVersion: columns.6,
            eventCount: columns.16, lastStep: columns.15, lastTime: columns.17.map(Date.init(timeIntervalSince1970:)),
            redactedPaths: redacted.sorted(), id: columns.0,
            metadata: SessionMetadata(
                app: columns.8, appVersion: columns.9, appBuild: columns.10, device: columns.11, os: columns.12,
                origin: columns.13.map(SessionMetadata.Origin.init(rawValue:)), tags: tags))
    }

    /// The session `id` alone, with its number in ``sessions(matching:)`` (counted by the
    /// index on the start, not by listing the others), the bytes its blocks hold inflated, and
    /// how many sessions the store holds.
    func held(_ id: UUID) async throws(StoreError) -> (summary: SessionSummary, inflatedBytes: Int, of: Int)? {
        let sql: PostgresQuery = """
            SELECT \(unescaped: Self.summaryColumns),
                (SELECT count(*) FROM rewind_session o WHERE o.started_at < s.started_at
                    OR (o.started_at = s.started_at AND (o.pushed_at, o.uuid) <= (s.pushed_at, s.uuid)))::bigint,
                (SELECT coalesce(sum(size), 0) FROM rewind_block WHERE session = s.uuid)::bigint,
                (SELECT count(*) FROM rewind_session)::bigint
            FROM rewind_session s WHERE uuid = \(id)
            """
        do {
            return try await withConnection { connection in
                var found: (SessionSummary, Int, Int)?
                for try await row in try await connection.query(sql, logger: self.logger) {
                    let cells = row.makeRandomAccess()
                    let number = try cells[18].decode(Int.self), bytes = try cells[19].decode(Int.self)
                    found = (try Self.summary(of: row, number: number), bytes, try cells[20].decode(Int.self))
                }
                return found
            }
        } catch {
            throw Self.describe(error, location: location.description)
        }
    }
}
#endif
