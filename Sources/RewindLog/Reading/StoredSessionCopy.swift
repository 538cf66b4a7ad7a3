import Foundation
import RewindCore

/// A session as its log stores it, every row checked against its checksum: what a copy to
/// another store (a team's PostgreSQL) takes whole, blocks still compressed.
public struct StoredSessionCopy: Sendable {
    /// A block of steps as stored: compressed (or not, when `data.count == size`).
    public struct Block: Sendable, Equatable {
        public var firstStep: Int
        public var lastStep: Int
        public var startsWithKeyframe: Bool
        public var lastTime: Double
        public var size: Int
        public var data: [UInt8]

        package init(firstStep: Int, lastStep: Int, startsWithKeyframe: Bool, lastTime: Double, size: Int, data: [UInt8]) {
            self.firstStep = firstStep
            self.lastStep = lastStep
            self.startsWithKeyframe = startsWithKeyframe
            self.lastTime = lastTime
            self.size = size
            self.data = data
        }

        /// The checksum the block's row has in a log where its session is number `session`
        /// (a block's checksum covers its session's number: docs/log-format.md).
        package func checksum(session: Int) -> Int64 {
            data.withUnsafeBytes { bytes in
                EventBlockRow(
                    session: session, firstStep: firstStep, lastStep: lastStep, startsWithKeyframe: startsWithKeyframe,
                    lastTime: lastTime, size: size
                ).checksum(data: bytes)
            }
        }
    }

    /// The session as `sessions` lists it, with its identity and metadata.
    public var summary: SessionSummary
    /// Its identity.
    public var id: UUID
    /// What it was recorded with.
    public var metadata: SessionMetadata
    /// The state at step 0, as stored (canonical JSON).
    public var initialState: String
    /// The digest stored with it.
    public var initialDigest: Int64
    /// The redacted paths as stored (a JSON array).
    public var redactedPaths: String
    /// Its blocks, in step order.
    public var blocks: [Block]
    /// Its gap markers, in step order.
    public var gaps: [LoggedGap]

    package init(
        summary: SessionSummary, id: UUID, metadata: SessionMetadata, initialState: String, initialDigest: Int64, redactedPaths: String,
        blocks: [Block], gaps: [LoggedGap]
    ) {
        self.summary = summary
        self.id = id
        self.metadata = metadata
        self.initialState = initialState
        self.initialDigest = initialDigest
        self.redactedPaths = redactedPaths
        self.blocks = blocks
        self.gaps = gaps
    }
}
