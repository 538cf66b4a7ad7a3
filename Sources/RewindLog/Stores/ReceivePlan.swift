import Foundation

/// What a store does with a copy of a session, decided from what it holds of it: the rules of
/// ``SessionDestination/receive(_:)`` and the order of its writes, written once above every
/// store. ``CopyIntake`` asks a store for what the plan needs (``Held``: the session, its gaps,
/// the blocks the copy may hold already, the bytes of the block ``Held/blockToCompare(with:)``
/// names), makes the plan, and hands out ``writes`` in order: the little each store does itself
/// is its transaction and its rows.
package struct ReceivePlan: Sendable {
    /// What a store holds of a session, read in the upload's transaction.
    struct Held: Sendable {
        /// The last step of its last block (0: its header and no block).
        var storedThrough: Int
        var ended: Bool
        /// Its app, nil for a session recorded without one.
        var app: String?
        var gaps: [LoggedGap]
        /// The blocks held from the upload's first block on (``firstStepToRead(of:storedThrough:)``),
        /// by first step: last step and checksum as the store keeps it.
        var blocks: [Int: (lastStep: Int, checksum: Int64)]
        /// The first step and stored bytes of the block ``blockToCompare(with:)`` names, once read.
        var compared: (firstStep: Int, bytes: BlockAdmission.StoredBytes)?

        init(
            storedThrough: Int, ended: Bool, app: String?, gaps: [LoggedGap], blocks: [Int: (lastStep: Int, checksum: Int64)],
            compared: (firstStep: Int, bytes: BlockAdmission.StoredBytes)? = nil
        ) {
            self.storedThrough = storedThrough
            self.ended = ended
            self.app = app
            self.gaps = gaps
            self.blocks = blocks
            self.compared = compared
        }

        /// A session the store does not hold yet, once its header is written.
        static let new = Held(storedThrough: 0, ended: false, app: nil, gaps: [], blocks: [:])

        /// The first step from which a store reads ``blocks`` for `upload`, nil when the upload
        /// holds no block the store may hold already.
        static func firstStepToRead(of upload: StoredSessionCopy, storedThrough: Int) -> Int? {
            upload.blocks.first.map(\.firstStep).flatMap { $0 <= storedThrough ? $0 : nil }
        }

        /// The first step of the held block whose bytes the plan compares with the upload's
        /// block of that first step (``compared``), once ``blocks`` is read: the last block held
        /// when the upload sends it with more steps (it grew), or a held block the upload sends
        /// with fewer (the upload is a copy taken earlier). Nil when the plan needs no bytes, as
        /// for every upload that only adds.
        func blockToCompare(with upload: StoredSessionCopy) -> Int? {
            upload.blocks.first { sent in
                guard let held = blocks[sent.firstStep] else { return false }
                return sent.lastStep < held.lastStep || (sent.lastStep > held.lastStep && held.lastStep == storedThrough)
            }?.firstStep
        }
    }

    /// One write of the plan, in the order a store carries them out.
    package enum Write: Sendable {
        /// A gap marker to add.
        case gap(LoggedGap)
        /// The held block of this first step, removed: a block of the upload grows it.
        case removeBlock(firstStep: Int)
        /// A block to store, with its checksum as the store keeps it.
        case block(StoredSessionCopy.Block, checksum: Int64)
        /// The session's end, once its last block is held.
        case end(Date)
    }

    /// What the store writes, in order: gap markers (the step a block must start at skips
    /// them), the held block a sent one grows, blocks, the end. Empty: the store holds every
    /// step and the end of the upload already.
    package private(set) var writes: [Write] = []
    /// Blocks to store.
    package private(set) var blocksAdded = 0
    /// Blocks the store held already (retries', and an older copy's).
    package private(set) var duplicates = 0
    /// The last step held once the plan is carried out.
    package private(set) var storedThrough: Int
    /// Steps the plan adds (a grown block's held steps counted once).
    package private(set) var steps = 0
    /// The last block's time, when one is stored.
    package private(set) var lastTime: Double?
    /// The session's end, once its last block is held: an end sent with earlier blocks waits.
    package private(set) var endedAt: Date?
    /// Whether the session ends with this upload or had ended.
    package private(set) var ended: Bool

    /// The plan for `upload` into a store that holds `held` of its session, keeping each block
    /// under `checksum(block)` (a log's checksums cover its session number; a team store's, 0).
    ///
    /// - Throws: ``UploadError``: `.otherApp` for a session held as another app's;
    ///   `.conflict` and `.outOfOrder` as ``BlockAdmission/of(_:checksum:storedThrough:gaps:held:)``
    ///   and ``BlockAdmission/checkPrefix(_:of:steps:)`` say.
    init(
        _ upload: StoredSessionCopy, held: Held, created: Bool, checksum: (StoredSessionCopy.Block) -> Int64
    ) throws(UploadError) {
        if !created { try BlockAdmission.checkApp(of: upload, held: held.app) }
        var stored = held.storedThrough
        let gaps = BlockAdmission.gapsToStore(upload.gaps, storedThrough: stored, held: held.gaps)
        writes = gaps.map(Write.gap)
        let allGaps = (held.gaps + gaps).sorted { $0.steps.lowerBound < $1.steps.lowerBound }
        var holdsMore = false
        for block in upload.blocks {
            let sum = checksum(block)
            let steps = block.firstStep...block.lastStep
            switch try BlockAdmission.of(block, checksum: sum, storedThrough: stored, gaps: allGaps, held: held.blocks[block.firstStep]) {
            case .duplicate:
                duplicates += 1
                continue
            case .heldGrown:
                try BlockAdmission.checkPrefix((block.data, block.size), of: try Self.compared(held, block), steps: steps)
                duplicates += 1
                holdsMore = true
                continue
            case .grows:
                try BlockAdmission.checkPrefix(try Self.compared(held, block), of: (block.data, block.size), steps: steps)
                writes.append(.removeBlock(firstStep: block.firstStep))
                self.steps -= stored - block.firstStep + 1
            case .new:
                break
            }
            writes.append(.block(block, checksum: sum))
            blocksAdded += 1
            stored = block.lastStep
            self.steps += block.lastStep - block.firstStep + 1
            lastTime = block.lastTime
        }
        storedThrough = stored
        // An end sent with earlier blocks waits for the last; an older copy's end (it cannot
        // have one while the store holds more) never comes.
        if !holdsMore, !held.ended, upload.blocks.last.map({ $0.lastStep == stored }) ?? true, let end = upload.summary.endedAt {
            endedAt = end
            writes.append(.end(end))
        }
        ended = held.ended || endedAt != nil
    }

    private static func compared(_ held: Held, _ block: StoredSessionCopy.Block) throws(UploadError) -> BlockAdmission.StoredBytes {
        guard let compared = held.compared, compared.firstStep == block.firstStep else {
            // Bytes of no block, or of another: refused, never taken on trust.
            throw UploadError(.conflict, "the block of steps \(block.firstStep) through \(block.lastStep) cannot be read against the one held")
        }
        return compared.bytes
    }

    /// What the upload's answer says of the session once the plan is carried out.
    func received(created: Bool) -> ReceivedBlocks {
        ReceivedBlocks(
            storedThrough: storedThrough, added: blocksAdded, duplicates: duplicates, ended: ended, created: created, steps: steps,
            changed: created || !writes.isEmpty)
    }
}

extension StoredSessionCopy {
    /// The session's header as a store writes it for a session new to it: no block, no gap, not
    /// ended, no step; what the upload holds follows as the plan says.
    var newSessionHeader: StoredSessionCopy {
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
