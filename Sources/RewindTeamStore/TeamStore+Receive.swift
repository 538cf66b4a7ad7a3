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
                var intake = CopyIntake(upload)
                var batch = BlockBatch()
                var step = try intake.next()
                while true {
                    switch step {
                    case .findSession:
                        var found: (Int, Bool, String?)?
                        for try await row in try await connection.query(
                            "SELECT last_step, ended_at IS NOT NULL, app FROM rewind_session WHERE uuid = \(id)", logger: self.logger
                        ).decode((Int, Bool, String?).self) {
                            found = row
                        }
                        // A team store numbers no session: its blocks' checksums are those of session 0.
                        step = found.map { intake.found(number: 0, app: $0.2, storedThrough: $0.0, ended: $0.1) } ?? intake.notFound()
                    case let .writeHeader(header):
                        try await self.insertSession(header, on: connection)
                        step = try intake.headerWritten(number: 0)
                    case .readGaps:
                        var gaps: [LoggedGap] = []
                        for try await (first, last, reason) in try await connection.query(
                            "SELECT first_step, last_step, reason FROM rewind_gap WHERE session = \(id) ORDER BY first_step", logger: self.logger
                        ).decode((Int, Int, String).self) {
                            gaps.append(LoggedGap(steps: first...last, reason: reason))
                        }
                        step = try intake.read(gaps: gaps)
                    case let .readBlocks(first):
                        var blocks: [Int: (lastStep: Int, checksum: Int64)] = [:]
                        for try await (firstStep, last, checksum) in try await connection.query(
                            "SELECT first_step, last_step, checksum FROM rewind_block WHERE session = \(id) AND first_step >= \(first)",
                            logger: self.logger
                        ).decode((Int, Int, Int64).self) {
                            blocks[firstStep] = (last, checksum)
                        }
                        step = try intake.read(blocks: blocks)
                    case let .readBlock(first):
                        var bytes: BlockAdmission.StoredBytes?
                        for try await (size, data) in try await connection.query(
                            "SELECT size, data FROM rewind_block WHERE session = \(id) AND first_step = \(first)", logger: self.logger
                        ).decode((Int, ByteBuffer).self) {
                            bytes = (Array(buffer: data), size)
                        }
                        step = try intake.read(block: bytes)
                    case let .write(.gap(gap)):
                        try await connection.query(
                            """
                            INSERT INTO rewind_gap (session, first_step, last_step, reason)
                            VALUES (\(id), \(gap.steps.lowerBound), \(gap.steps.upperBound), \(gap.reason))
                            """, logger: self.logger)
                        step = try intake.next()
                    case let .write(.removeBlock(firstStep)):
                        try await connection.query("DELETE FROM rewind_block WHERE session = \(id) AND first_step = \(firstStep)", logger: self.logger)
                        step = try intake.next()
                    case let .write(.block(block, checksum)):
                        // Blocks go in batches, one statement of arrays each (`unnest`): a
                        // statement a block was a round trip a block, 3,900 for 1,000,000 steps.
                        batch.append(block, checksum: checksum)
                        if batch.isFull {
                            try await batch.insert(session: id, on: connection, logger: self.logger)
                            batch = BlockBatch()
                        }
                        step = try intake.next()
                    case .write(.end):
                        // At the finish, with the session's other columns.
                        step = try intake.next()
                    case let .finish(plan):
                        if !batch.isEmpty { try await batch.insert(session: id, on: connection, logger: self.logger) }
                        let endedAt = plan.endedAt?.timeIntervalSince1970
                        try await connection.query(
                            """
                            UPDATE rewind_session SET last_step = \(plan.storedThrough), event_count = event_count + \(plan.steps),
                                last_time = coalesce(\(plan.lastTime), last_time), ended_at = coalesce(ended_at, \(endedAt))
                            WHERE uuid = \(id)
                            """, logger: self.logger)
                        step = try intake.next()
                    case let .done(received):
                        return received
                    }
                }
            }
        } catch let refused as UploadError {
            throw refused
        } catch {
            throw Self.describe(error, location: location.description)
        }
    }
}
#endif
