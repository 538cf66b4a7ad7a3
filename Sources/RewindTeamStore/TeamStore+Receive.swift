#if Servers
import Foundation
import PostgresNIO
import RewindLog

extension TeamStore: SessionDestination {
    /// Stores what `upload` holds that the store lacks, in one transaction, as
    /// ``SessionDestination/receive(_:)`` says: what a collector does with an upload.
    ///
    /// Uploads of different sessions go at once, each on a connection of the pool; two of
    /// one session (a device's retry landing on another collector) take turns under the
    /// session's transaction lock, the second finding what the first stored.
    public func receive(_ upload: StoredSessionCopy) async throws -> ReceivedBlocks {
        try await withConnection { connection in try await self.receiving(upload, on: connection) }
    }

    public func progress(of id: UUID) async throws -> ReceivedBlocks? {
        try await withConnection { connection in
            var found: ReceivedBlocks?
            for try await (through, ended) in try await connection.query(
                "SELECT last_step, ended_at IS NOT NULL FROM rewind_session WHERE uuid = \(id)", logger: self.logger
            ).decode((Int, Bool).self) {
                found = ReceivedBlocks(storedThrough: through, added: 0, duplicates: 0, ended: ended, created: false)
            }
            return found
        }
    }

    private func receiving(_ upload: StoredSessionCopy, on connection: PostgresConnection) async throws -> ReceivedBlocks {
        let id = upload.id
        do {
            return try await Self.transaction(on: connection, logger: logger) { connection in
                // One writer of a session at a time, across collectors: a retry that lands on
                // another one waits here, then finds what the first stored.
                try await connection.query("SELECT pg_advisory_xact_lock(\(Self.lockKey(id)))", logger: self.logger)
                var held = ReceivePlan.Held.new
                var found = false
                for try await (through, ended, app) in try await connection.query(
                    "SELECT last_step, ended_at IS NOT NULL, app FROM rewind_session WHERE uuid = \(id)", logger: self.logger
                ).decode((Int, Bool, String?).self) {
                    (held.storedThrough, held.ended, held.app, found) = (through, ended, app, true)
                }
                if found {
                    for try await (first, last, reason) in try await connection.query(
                        "SELECT first_step, last_step, reason FROM rewind_gap WHERE session = \(id) ORDER BY first_step", logger: self.logger
                    ).decode((Int, Int, String).self) {
                        held.gaps.append(LoggedGap(steps: first...last, reason: reason))
                    }
                    if let first = ReceivePlan.Held.firstStepToRead(of: upload, storedThrough: held.storedThrough) {
                        for try await (firstStep, last, checksum) in try await connection.query(
                            "SELECT first_step, last_step, checksum FROM rewind_block WHERE session = \(id) AND first_step >= \(first)",
                            logger: self.logger
                        ).decode((Int, Int, Int64).self) {
                            held.blocks[firstStep] = (last, checksum)
                        }
                    }
                    if let compared = held.blockToCompare(with: upload) {
                        for try await (size, data) in try await connection.query(
                            "SELECT size, data FROM rewind_block WHERE session = \(id) AND first_step = \(compared)", logger: self.logger
                        ).decode((Int, ByteBuffer).self) {
                            held.compared = (compared, (Array(buffer: data), size))
                        }
                    }
                } else {
                    // A refusal below rolls the header back with the rest.
                    try await self.insertSession(upload.newSessionHeader, on: connection)
                }
                // A team store numbers no session: its blocks' checksums are those of session 0.
                let plan = try ReceivePlan(upload, held: held, created: !found) { $0.checksum(session: 0) }
                var batch = BlockBatch()
                for write in plan.writes {
                    switch write {
                    case let .gap(gap):
                        try await connection.query(
                            """
                            INSERT INTO rewind_gap (session, first_step, last_step, reason)
                            VALUES (\(id), \(gap.steps.lowerBound), \(gap.steps.upperBound), \(gap.reason))
                            """, logger: self.logger)
                    case let .removeBlock(firstStep):
                        try await connection.query("DELETE FROM rewind_block WHERE session = \(id) AND first_step = \(firstStep)", logger: self.logger)
                    case let .block(block, checksum):
                        // Blocks go in batches, one statement of arrays each (`unnest`): a
                        // statement a block was a round trip a block, 3,900 for 1,000,000 steps.
                        batch.append(block, checksum: checksum)
                        if batch.isFull {
                            try await batch.insert(session: id, on: connection, logger: self.logger)
                            batch = BlockBatch()
                        }
                    case .end:
                        // Below, with the session's other columns.
                        break
                    }
                }
                if !batch.isEmpty { try await batch.insert(session: id, on: connection, logger: self.logger) }
                if !plan.writes.isEmpty {
                    let endedAt = plan.endedAt?.timeIntervalSince1970
                    try await connection.query(
                        """
                        UPDATE rewind_session SET last_step = \(plan.storedThrough), event_count = event_count + \(plan.steps),
                            last_time = coalesce(\(plan.lastTime), last_time), ended_at = coalesce(ended_at, \(endedAt))
                        WHERE uuid = \(id)
                        """, logger: self.logger)
                }
                return plan.received(created: !found)
            }
        } catch let refused as UploadError {
            throw refused
        } catch {
            throw Self.describe(error, location: location.description)
        }
    }
}
#endif
