#if Servers
import Foundation
import PostgresNIO
import RewindLog

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
