#if TeamStore
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
                try await connection.query("SELECT pg_advisory_xact_lock(\(Self.lockKey(id)))", logger: self.logger)
                var held: (through: Int, ended: Bool)?
                for try await (through, ended, app) in try await connection.query(
                    "SELECT last_step, ended_at IS NOT NULL, app FROM rewind_session WHERE uuid = \(id)", logger: self.logger
                ).decode((Int, Bool, String?).self) {
                    try BlockAdmission.checkApp(of: upload, held: app)
                    held = (through, ended)
                }
                let created = held == nil
                if held == nil {
                    var header = upload
                    header.blocks = []
                    header.gaps = []
                    header.summary.endedAt = nil
                    header.summary.lastStep = 0
                    header.summary.eventCount = 0
                    header.summary.lastTime = nil
                    try await self.insertSession(header, on: connection)
                    held = (0, false)
                }
                var stored = held?.through ?? 0
                var gaps: [LoggedGap] = []
                for try await (first, last, reason) in try await connection.query(
                    "SELECT first_step, last_step, reason FROM rewind_gap WHERE session = \(id) ORDER BY first_step", logger: self.logger
                ).decode((Int, Int, String).self) {
                    gaps.append(LoggedGap(steps: first...last, reason: reason))
                }
                for gap in BlockAdmission.gapsToStore(upload.gaps, storedThrough: stored, held: gaps) {
                    try await connection.query(
                        """
                        INSERT INTO rewind_gap (session, first_step, last_step, reason)
                        VALUES (\(id), \(gap.steps.lowerBound), \(gap.steps.upperBound), \(gap.reason))
                        """, logger: self.logger)
                    gaps.append(gap)
                }
                gaps.sort { $0.steps.lowerBound < $1.steps.lowerBound }
                var heldBlocks: [Int: (lastStep: Int, checksum: Int64)] = [:]
                if let first = upload.blocks.first?.firstStep, first <= stored {
                    for try await (firstStep, last, checksum) in try await connection.query(
                        "SELECT first_step, last_step, checksum FROM rewind_block WHERE session = \(id) AND first_step BETWEEN \(first) AND \(stored)",
                        logger: self.logger
                    ).decode((Int, Int, Int64).self) {
                        heldBlocks[firstStep] = (last, checksum)
                    }
                }
                var batch = BlockBatch()
                var added = 0, duplicates = 0, steps = 0
                var lastTime: Double?
                for block in upload.blocks {
                    let checksum = block.checksum(session: 0)
                    let admission = try BlockAdmission.of(
                        block, checksum: checksum, storedThrough: stored, gaps: gaps, held: heldBlocks[block.firstStep])
                    switch admission {
                    case .duplicate:
                        duplicates += 1
                        continue
                    case .grows:
                        // The last block held, with steps added since: checked against what is
                        // held, then stored in its place (the batch holds no block before it).
                        var held: (data: [UInt8], size: Int)?
                        for try await (size, data) in try await connection.query(
                            "SELECT size, data FROM rewind_block WHERE session = \(id) AND first_step = \(block.firstStep)", logger: self.logger
                        ).decode((Int, ByteBuffer).self) {
                            held = (Array(buffer: data), size)
                        }
                        try BlockAdmission.checkGrowth(of: held?.data ?? [], size: held?.size ?? 0, to: block)
                        try await connection.query(
                            "DELETE FROM rewind_block WHERE session = \(id) AND first_step = \(block.firstStep)", logger: self.logger)
                        steps -= stored - block.firstStep + 1
                    case .new:
                        break
                    }
                    batch.append(block, checksum: checksum)
                    if batch.isFull {
                        try await batch.insert(session: id, on: connection, logger: self.logger)
                        batch = BlockBatch()
                    }
                    stored = block.lastStep
                    steps += block.lastStep - block.firstStep + 1
                    lastTime = block.lastTime
                    added += 1
                }
                if !batch.isEmpty { try await batch.insert(session: id, on: connection, logger: self.logger) }
                // Ended once the last block is held: an end sent with earlier blocks only waits.
                let endedAt = upload.blocks.last.map { $0.lastStep == stored } ?? true ? upload.summary.endedAt?.timeIntervalSince1970 : nil
                try await connection.query(
                    """
                    UPDATE rewind_session SET last_step = \(stored), event_count = event_count + \(steps),
                        last_time = coalesce(\(lastTime), last_time), ended_at = coalesce(ended_at, \(endedAt))
                    WHERE uuid = \(id)
                    """, logger: self.logger)
                return ReceivedBlocks(
                    storedThrough: stored, added: added, duplicates: duplicates, ended: (held?.ended ?? false) || endedAt != nil, created: created)
            }
        } catch let refused as UploadError {
            throw refused
        } catch {
            throw Self.describe(error, location: location.description)
        }
    }
}
#endif
