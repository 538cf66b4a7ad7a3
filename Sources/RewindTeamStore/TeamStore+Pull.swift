#if Servers
import Foundation
import PostgresNIO
import RewindCore
import RewindLog
import RewindUpload

extension TeamStore {
    /// The session `selector` names (its number in ``sessions(matching:)``, its UUID, or a
    /// name no other session of the store has), as stored, every block checked against the
    /// checksum the store keeps.
    public func copy(of selector: String) async throws(StoreError) -> StoredSessionCopy {
        try await copy(of: choose(.one(selector), among: sessions())[0])
    }

    /// `session` as stored, every block checked against the checksum the store keeps.
    ///
    /// - Parameter steps: only the blocks that rebuild the states at these steps (counted
    ///   back from the last when negative) and the state before each, with the session's first
    ///   and last block, which bound it; every block when nil.
    func copy(of session: SessionSummary, steps: [Int]? = nil) async throws(StoreError) -> StoredSessionCopy {
        do {
            return try await withConnection { connection in try await self.copying(session, steps: steps, on: connection) }
        } catch {
            throw Self.describe(error, location: location.description)
        }
    }

    private func copying(
        _ session: SessionSummary, steps: [Int]?, on connection: PostgresConnection
    ) async throws(StoreError) -> StoredSessionCopy {
        let location = location.description
        guard let id = session.id, let metadata = session.metadata else {
            throw StoreError(.failed, location: location, "session \(session.label) has no identity")
        }
        do {
            var initial: (String, Int64, String)?
            for try await row in try await connection.query(
                "SELECT initial_state, initial_digest, redacted_paths FROM rewind_session WHERE uuid = \(id)", logger: logger
            ).decode((String, Int64, String).self) {
                initial = row
            }
            guard let initial else { throw StoreError(.noSuchSession, location: location, "no session \(id.uuidString)") }
            var blocks: [StoredSessionCopy.Block] = []
            let rows: PostgresRowSequence
            if let steps, !steps.isEmpty {
                let resolved = steps.map { $0 < 0 ? session.lastStep + 1 + $0 : $0 }
                // From the last keyframe at or before the step before the first asked for (a
                // view of a step reads the state before it), through the block holding the last.
                let from = max(0, (resolved.min() ?? 0) - 1), through = max(0, resolved.max() ?? 0)
                rows = try await connection.query(
                    """
                    SELECT first_step, last_step, keyframe, last_time, size, checksum, data FROM rewind_block
                    WHERE session = \(id) AND (
                        first_step BETWEEN coalesce((SELECT max(first_step) FROM rewind_block
                                                     WHERE session = \(id) AND keyframe AND first_step <= \(from)), 0)
                                       AND \(through)
                        OR first_step = (SELECT min(first_step) FROM rewind_block WHERE session = \(id))
                        OR first_step = (SELECT max(first_step) FROM rewind_block WHERE session = \(id)))
                    ORDER BY first_step
                    """, logger: logger)
            } else {
                rows = try await connection.query(
                    "SELECT first_step, last_step, keyframe, last_time, size, checksum, data FROM rewind_block WHERE session = \(id) ORDER BY first_step",
                    logger: logger)
            }
            for try await (first, last, keyframe, lastTime, size, checksum, data) in rows.decode((Int, Int, Bool, Double, Int, Int64, ByteBuffer).self) {
                let block = StoredSessionCopy.Block(
                    firstStep: first, lastStep: last, startsWithKeyframe: keyframe, lastTime: lastTime, size: size,
                    data: Array(data.readableBytesView))
                guard block.checksum(session: 0) == checksum else {
                    throw StoreError(
                        .damaged, location: location, "session \(id.uuidString): its stored block (steps \(first) through \(last)) does not match its checksum")
                }
                blocks.append(block)
            }
            var gaps: [LoggedGap] = []
            for try await (first, last, reason) in try await connection.query(
                "SELECT first_step, last_step, reason FROM rewind_gap WHERE session = \(id) ORDER BY first_step", logger: logger
            ).decode((Int, Int, String).self) {
                gaps.append(LoggedGap(steps: first...last, reason: reason))
            }
            return StoredSessionCopy(
                summary: session, id: id, metadata: metadata, initialState: initial.0, initialDigest: initial.1, redactedPaths: initial.2,
                blocks: blocks, gaps: gaps)
        } catch {
            throw Self.describe(error, location: location)
        }
    }
}
#endif
