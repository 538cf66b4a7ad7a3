#if Servers
import Foundation
import PostgresNIO
import RewindCore
import RewindLog

extension TeamStore {
    /// What a push did with one session.
    public enum PushOutcome: Sendable, Equatable {
        /// The store did not have it.
        case added
        /// The store had fewer of its steps (it was being recorded), or had not seen it end.
        case extended(fromStep: Int)
        /// The store had it as it is.
        case alreadyThere
        /// The store holds more of it than the log (a copy of the log taken earlier, a flight
        /// recorder's log that trimmed steps the store keeps): nothing changed.
        case storeHoldsMore(storedThrough: Int)
    }

    /// Copies `copy` into the store in one transaction, so that readers see the session
    /// whole or not at all. A session the store has is never replaced: it is extended, as a
    /// collector's upload is (``receive(_:)``), when the log holds steps past the store's or
    /// its end, and left as it is otherwise. (Replaced, a session the store held whole lost
    /// steps to a copy of its log taken earlier: 3,000 steps became 1,378.)
    ///
    /// Blocks are stored with the checksum a block of session number 0 has
    /// (`StoredSessionCopy.Block.checksum(session:)`): a session's number belongs to a
    /// log, and the store numbers none.
    public func push(_ copy: StoredSessionCopy) async throws(TeamStoreError) -> PushOutcome {
        let outcome: PushOutcome
        do {
            outcome = try await withConnection { connection in try await self.pushing(copy, on: connection) }
        } catch {
            throw Self.describe(error, location: location.description)
        }
        guard case let .extended(fromStep) = outcome else { return outcome }
        do {
            _ = try await receive(copy)
        } catch let error as TeamStoreError {
            throw error
        } catch {
            throw TeamStoreError(.failed, location: location.description, "session \(copy.id.uuidString): \(error)")
        }
        return .extended(fromStep: fromStep)
    }

    private func pushing(_ copy: StoredSessionCopy, on connection: PostgresConnection) async throws -> PushOutcome {
        let summary = copy.summary
        let id = copy.id
        return try await Self.transaction(on: connection, logger: logger) { connection in
            // One pusher of a session at a time: the second waits, then finds it there.
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.lockKey(id)))", logger: self.logger)
            var stored: (lastStep: Int, eventCount: Int, ended: Bool)?
            let rows = try await connection.query(
                "SELECT last_step, event_count, ended_at IS NOT NULL FROM rewind_session WHERE uuid = \(id)", logger: self.logger)
            for try await (lastStep, eventCount, ended) in rows.decode((Int, Int, Bool).self) {
                stored = (lastStep, eventCount, ended)
            }
            if let stored {
                if stored.lastStep == summary.lastStep, stored.eventCount == summary.eventCount, stored.ended == (summary.endedAt != nil) {
                    return .alreadyThere
                }
                if stored.lastStep > summary.lastStep || (stored.lastStep == summary.lastStep && (stored.ended || summary.endedAt == nil)) {
                    return .storeHoldsMore(storedThrough: stored.lastStep)
                }
                // Extended by `push(_:)` after this transaction, block by block.
                return .extended(fromStep: stored.lastStep)
            }
            try await self.insert(copy, on: connection)
            return .added
        }
    }

    private func insert(_ copy: StoredSessionCopy, on connection: PostgresConnection) async throws {
        try await insertSession(copy, on: connection)
        let id = copy.id
        // Blocks go in batches, one statement of arrays each (`unnest`), in binary: a statement
        // a block was a round trip a block, 3,900 for a 1,000,000-step session.
        var batch = BlockBatch()
        for block in copy.blocks {
            batch.append(block)
            if batch.isFull {
                try await batch.insert(session: id, on: connection, logger: logger)
                batch = BlockBatch()
            }
        }
        if !batch.isEmpty { try await batch.insert(session: id, on: connection, logger: logger) }
        for gap in copy.gaps {
            try await connection.query(
                """
                INSERT INTO rewind_gap (session, first_step, last_step, reason)
                VALUES (\(id), \(gap.steps.lowerBound), \(gap.steps.upperBound), \(gap.reason))
                """, logger: logger)
        }
    }
}

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

/// Blocks of one session sent in one statement, as columns of arrays.
struct BlockBatch {
    /// At most this many bytes of block data a statement (a whole batch is held in memory and
    /// sent as one message), or this many blocks.
    static let maximumBytes = 4 << 20
    static let maximumBlocks = 1_024

    var firstSteps: [Int] = [], lastSteps: [Int] = [], keyframes: [Bool] = [], lastTimes: [Double] = []
    var sizes: [Int] = [], checksums: [Int64] = [], data: [ByteBuffer] = []
    var bytes = 0

    var isEmpty: Bool { firstSteps.isEmpty }
    var isFull: Bool { bytes >= Self.maximumBytes || firstSteps.count >= Self.maximumBlocks }

    /// Adds `block`, whose checksum as the store keeps it (of session 0) is `checksum`.
    mutating func append(_ block: StoredSessionCopy.Block, checksum: Int64? = nil) {
        firstSteps.append(block.firstStep)
        lastSteps.append(block.lastStep)
        keyframes.append(block.startsWithKeyframe)
        lastTimes.append(block.lastTime)
        sizes.append(block.size)
        checksums.append(checksum ?? block.checksum(session: 0))
        data.append(ByteBuffer(bytes: block.data))
        bytes += block.data.count
    }

    func insert(session id: UUID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            """
            INSERT INTO rewind_block (session, first_step, last_step, keyframe, last_time, size, checksum, data)
            SELECT \(id), * FROM unnest(\(firstSteps)::bigint[], \(lastSteps)::bigint[], \(keyframes)::boolean[],
                \(lastTimes)::double precision[], \(sizes)::bigint[], \(checksums)::bigint[], \(data)::bytea[])
            """, logger: logger)
    }
}
#endif
