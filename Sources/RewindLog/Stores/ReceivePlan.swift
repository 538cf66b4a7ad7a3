import Foundation

/// What a store does with an upload, decided from what it holds of the session: the rules of
/// ``SessionDestination/receive(_:)`` written once, above every store. A store reads
/// ``Held`` in the upload's transaction, asks for the plan, and carries it out in the same
/// transaction: a new session's header (``StoredSessionCopy/newSessionHeader``), then
/// ``gaps``, then the held block ``grows`` replaces (once ``BlockAdmission/checkGrowth(of:size:to:)``
/// passes), then ``blocks``, then ``endedAt``.
public struct ReceivePlan: Sendable {
    /// What a store holds of a session, read in the upload's transaction.
    public struct Held: Sendable {
        /// The last step of its last block (0: its header and no block).
        public var storedThrough: Int
        public var ended: Bool
        /// Its app, nil for a session recorded without one.
        public var app: String?
        public var gaps: [LoggedGap]
        /// The blocks held from the upload's first block on (``firstStepToRead(of:)``), by first
        /// step: last step and checksum as the store keeps it.
        public var blocks: [Int: (lastStep: Int, checksum: Int64)]

        public init(storedThrough: Int, ended: Bool, app: String?, gaps: [LoggedGap], blocks: [Int: (lastStep: Int, checksum: Int64)]) {
            self.storedThrough = storedThrough
            self.ended = ended
            self.app = app
            self.gaps = gaps
            self.blocks = blocks
        }

        /// A session the store does not hold yet, once its header is written.
        public static let new = Held(storedThrough: 0, ended: false, app: nil, gaps: [], blocks: [:])

        /// The first step from which a store reads ``blocks`` for `upload`, nil when the upload
        /// holds no block the store may hold already.
        public static func firstStepToRead(of upload: StoredSessionCopy, storedThrough: Int) -> Int? {
            upload.blocks.first.map(\.firstStep).flatMap { $0 <= storedThrough ? $0 : nil }
        }
    }

    /// Gap markers to add.
    public var gaps: [LoggedGap]
    /// The first step of the held block that the upload's block of that step grows, removed
    /// before ``blocks`` are stored.
    public var grows: Int?
    /// Blocks to store, in order, each with its checksum as the store keeps it.
    public var blocks: [(block: StoredSessionCopy.Block, checksum: Int64)]
    /// Blocks the store held already (retries').
    public var duplicates: Int
    /// The last step held once the plan is carried out.
    public var storedThrough: Int
    /// Steps the plan adds (a grown block's held steps counted once).
    public var steps: Int
    /// The last block's time, when one is stored.
    public var lastTime: Double?
    /// The session's end, once its last block is held: an end sent with earlier blocks waits.
    public var endedAt: Date?
    /// Whether the session ends with this upload or had ended.
    public var ended: Bool

    /// The plan for `upload` into a store that holds `held` of its session, keeping each block
    /// under `checksum(block)` (a log's checksums cover its session number; a team store's, 0).
    ///
    /// - Throws: ``UploadError``: `.otherApp` for a session held as another app's;
    ///   `.conflict` and `.outOfOrder` as ``BlockAdmission/of(_:checksum:storedThrough:gaps:held:)`` says.
    public init(
        _ upload: StoredSessionCopy, held: Held, created: Bool, checksum: (StoredSessionCopy.Block) -> Int64
    ) throws(UploadError) {
        if !created { try BlockAdmission.checkApp(of: upload, held: held.app) }
        var stored = held.storedThrough
        gaps = BlockAdmission.gapsToStore(upload.gaps, storedThrough: stored, held: held.gaps)
        // The gaps go first: the step a block must start at skips them.
        let allGaps = (held.gaps + gaps).sorted { $0.steps.lowerBound < $1.steps.lowerBound }
        blocks = []
        duplicates = 0
        steps = 0
        for block in upload.blocks {
            let sum = checksum(block)
            switch try BlockAdmission.of(block, checksum: sum, storedThrough: stored, gaps: allGaps, held: held.blocks[block.firstStep]) {
            case .duplicate:
                duplicates += 1
                continue
            case .grows:
                grows = block.firstStep
                steps -= stored - block.firstStep + 1
            case .new:
                break
            }
            blocks.append((block, sum))
            stored = block.lastStep
            steps += block.lastStep - block.firstStep + 1
            lastTime = block.lastTime
        }
        storedThrough = stored
        endedAt = upload.blocks.last.map { $0.lastStep == stored } ?? true ? upload.summary.endedAt : nil
        ended = held.ended || endedAt != nil
    }

    /// What the upload's answer says of the session once the plan is carried out.
    public func received(created: Bool) -> ReceivedBlocks {
        ReceivedBlocks(storedThrough: storedThrough, added: blocks.count, duplicates: duplicates, ended: ended, created: created)
    }
}

extension StoredSessionCopy {
    /// The session's header as a store writes it for a session new to it: no block, no gap, not
    /// ended, no step; what the upload holds follows as the plan says.
    public var newSessionHeader: StoredSessionCopy {
        var header = self
        header.blocks = []
        header.gaps = []
        header.summary.endedAt = nil
        header.summary.lastStep = 0
        header.summary.eventCount = 0
        header.summary.lastTime = nil
        return header
    }
}
