import Foundation
import GRDB
import RewindCore

extension LogReader {
    /// `session` as stored, every row checked against its checksum, for a copy to another
    /// store: its identity and metadata, its initial state, its blocks still compressed, and
    /// its gap markers, read in one transaction (a session being recorded is copied as far
    /// as its last commit).
    ///
    /// - Throws: ``LogError`` naming the first row that does not match its checksum; a session
    ///   stored in rows (log format 2 or older: `replay --update` moves it into blocks) or
    ///   without an identity (a log of format 3: any writer migrates it) as
    ///   ``LogError/Kind/invalidArgument``.
    ///
    /// - Parameters:
    ///   - step: only blocks with steps after this one (an upload that goes on from what a
    ///     collector holds; the block holding `step` is sent whole when it has steps after it,
    ///     as the last block of a session being recorded does).
    ///   - maximumBytes: no block past the one that brings the blocks' data to this many bytes
    ///     (an uploader holds one batch in memory, not a session): a copy cut short has no end
    ///     time (`summary.endedAt` nil), since its session's end is not in it.
    ///   - maximumBlocks: no more blocks than this.
    package func storedCopy(
        of session: SessionSummary, after step: Int = 0, maximumBytes: Int = .max, maximumBlocks: Int = .max
    ) throws(LogError) -> StoredSessionCopy {
        let session = try checked(session)
        guard storesBlocks(session) else {
            throw LogError(
                .invalidArgument, path: path, session: session.number,
                "session \(session.label) is stored in rows (log format \(session.formatVersion)); `rewind replay --update` moves it into blocks")
        }
        guard let id = session.id, let metadata = session.metadata else {
            throw LogError(
                .invalidArgument, path: path, session: session.number,
                "session \(session.label) has no identity (log format \(formatVersion)); a writer of this rewind gives it one")
        }
        let gaps = try self.gaps(of: session)
        return try read(session: session.number) { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT initial_state, initial_digest, redacted_paths FROM session WHERE id = ?", arguments: [session.number])
            else { throw LogError.damage(in: path, "session \(session.label) has no row", session: session.number) }
            var blocks: [StoredSessionCopy.Block] = []
            let rows = try Row.fetchCursor(
                db, sql: "SELECT \(Self.blockColumns) FROM event_block WHERE session_id = ? AND last_step > ? ORDER BY first_step",
                arguments: [session.number, step])
            var bytes = 0, cutShort = false
            while let block = try rows.next() {
                guard bytes < maximumBytes, blocks.count < maximumBlocks else {
                    cutShort = true
                    break
                }
                let first: Int = try block.stored("first_step")
                let copy = StoredSessionCopy.Block(
                    firstStep: first, lastStep: try block.stored("last_step"), startsWithKeyframe: try block.stored("keyframe") as Int != 0,
                    lastTime: try block.stored("last_time"), size: try block.stored("size"), data: Array(try block.stored("data") as Data))
                guard copy.checksum(session: session.number) == (try block.stored("checksum") as Int64) else {
                    throw mismatch(in: session, step: first, block: first...copy.lastStep)
                }
                blocks.append(copy)
                bytes += copy.data.count
            }
            // A session being recorded may have grown since `session` was read: its bounds
            // are taken from the blocks this transaction read, so that they agree.
            var summary = session
            if cutShort { summary.endedAt = nil }
            if let last = blocks.last {
                let first = blocks[0].firstStep
                summary.lastStep = last.lastStep
                summary.lastTime = Date(timeIntervalSince1970: last.lastTime)
                let missing = gaps.reduce(0) { total, gap in
                    total + max(0, min(gap.steps.upperBound, last.lastStep) - max(gap.steps.lowerBound, first) + 1)
                }
                summary.eventCount = last.lastStep - first + 1 - missing
            }
            return StoredSessionCopy(
                summary: summary, id: id, metadata: metadata, initialState: try row.stored("initial_state"),
                initialDigest: try row.stored("initial_digest"), redactedPaths: try row.stored("redacted_paths"), blocks: blocks, gaps: gaps)
        }
    }
}

extension LogReader {
    /// The bytes `session`'s blocks hold once inflated: what a reader of the whole session
    /// holds at least, known without reading a block.
    package func inflatedSize(of session: SessionSummary) throws(LogError) -> Int {
        try read(session: session.number) { db in
            try Int.fetchOne(db, sql: "SELECT coalesce(sum(size), 0) FROM event_block WHERE session_id = ?", arguments: [session.number]) ?? 0
        }
    }
}
