#if TeamStore
import Foundation
import PostgresNIO
import RewindCore
import RewindLog

extension TeamStore {
    /// The session `selector` names (its UUID, or a name no other session of the store has),
    /// as stored, every block checked against the checksum the store keeps.
    public func copy(of selector: String) async throws(TeamStoreError) -> StoredSessionCopy {
        let location = location.description
        let sessions = try await sessions()
        let chosen: SessionSummary
        if let id = UUID(uuidString: selector), let match = sessions.first(where: { $0.id == id }) {
            chosen = match
        } else {
            let named = sessions.filter { $0.name == selector }
            guard named.count == 1 else {
                throw TeamStoreError(
                    .noSuchSession, location: location,
                    named.isEmpty ? "no session \(selector)" : "\(named.count) sessions are named \(selector); choose one by UUID")
            }
            chosen = named[0]
        }
        guard let id = chosen.id, let metadata = chosen.metadata else {
            throw TeamStoreError(.failed, location: location, "session \(selector) has no identity")
        }
        do {
            var initial: (String, Int64, String)?
            for try await row in try await connection.query(
                "SELECT initial_state, initial_digest, redacted_paths FROM rewind_session WHERE uuid = \(id)", logger: logger
            ).decode((String, Int64, String).self) {
                initial = row
            }
            guard let initial else { throw TeamStoreError(.noSuchSession, location: location, "no session \(selector)") }
            var blocks: [StoredSessionCopy.Block] = []
            let rows = try await connection.query(
                "SELECT first_step, last_step, keyframe, last_time, size, checksum, data FROM rewind_block WHERE session = \(id) ORDER BY first_step",
                logger: logger)
            for try await (first, last, keyframe, lastTime, size, checksum, data) in rows.decode((Int, Int, Bool, Double, Int, Int64, ByteBuffer).self) {
                let block = StoredSessionCopy.Block(
                    firstStep: first, lastStep: last, startsWithKeyframe: keyframe, lastTime: lastTime, size: size,
                    data: Array(data.readableBytesView))
                guard block.checksum(session: 0) == checksum else {
                    throw TeamStoreError(
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
                summary: chosen, id: id, metadata: metadata, initialState: initial.0, initialDigest: initial.1, redactedPaths: initial.2,
                blocks: blocks, gaps: gaps)
        } catch {
            throw Self.describe(error, location: location)
        }
    }
}
#endif
