import Foundation
import GRDB

extension SQLiteSink {
    /// The last step held of the session `id`, as ``SessionDestination/progress(of:)``.
    public func progress(of id: UUID) throws -> ReceivedBlocks? {
        try reading { db in
            guard let number = try Int.fetchOne(db, sql: "SELECT session_id FROM session_meta WHERE uuid = ?", arguments: [id.uuidString]) else {
                return nil
            }
            return try Self.progress(db, session: number, added: 0, duplicates: 0, created: false)
        }
    }

    /// Stores what `upload` holds that the log lacks, in one transaction, as
    /// ``SessionDestination/receive(_:)`` says.
    public func receive(_ upload: StoredSessionCopy) throws -> ReceivedBlocks {
        try writing { db in try receive(upload, in: db) }
    }

    /// Stores each of `uploads` as ``receive(_:)`` does, all in one transaction, each in a
    /// savepoint of its own: one commit, and one sync, for many clients' uploads (a group
    /// commit), and an upload refused leaves the others as they would be alone. The result of
    /// each, in order; a failure to commit throws for all.
    public func receive(all uploads: [StoredSessionCopy]) throws -> [Result<ReceivedBlocks, any Error>] {
        do {
            return try writing { db in
                let results = try uploads.map { upload in
                    var result: Result<ReceivedBlocks, any Error> = .failure(CancellationError())
                    do {
                        try db.inSavepoint {
                            result = .success(try receive(upload, in: db))
                            return .commit
                        }
                    } catch let error as DatabaseError {
                        // The transaction itself failed: nothing of any upload can be kept.
                        throw error
                    } catch {
                        result = .failure(error)
                    }
                    return result
                }
                // Every upload refused: the transaction is rolled back, so that not a byte of
                // the file changes (a savepoint rolled back still leaves its pages to write).
                if results.allSatisfy({ if case .failure = $0 { true } else { false } }) { throw AllRefused(results: results) }
                return results
            }
        } catch let refused as AllRefused {
            return refused.results
        }
    }

    private struct AllRefused: Error {
        var results: [Result<ReceivedBlocks, any Error>]
    }

    private func receive(_ upload: StoredSessionCopy, in db: Database) throws -> ReceivedBlocks {
        var created = false
        let number: Int
        if let held = try Row.fetchOne(db, sql: "SELECT session_id, app FROM session_meta WHERE uuid = ?", arguments: [upload.id.uuidString]) {
            try BlockAdmission.checkApp(of: upload, held: held["app"])
            number = held["session_id"]
        } else {
            var header = upload
            header.blocks = []
            header.gaps = []
            header.summary.endedAt = nil
            number = try insertSession(header, in: db)
            created = true
        }
        var stored = try Int.fetchOne(db, sql: "SELECT max(last_step) FROM event_block WHERE session_id = ?", arguments: [number]) ?? 0
        // The gaps go first: the step a block must start at skips them.
        var gaps = try LoggedGap.fetchAll(db, session: number)
        for gap in BlockAdmission.gapsToStore(upload.gaps, storedThrough: stored, held: gaps) {
            try db.execute(
                sql: "INSERT INTO gap (session_id, first_step, last_step, reason, checksum) VALUES (?, ?, ?, ?, ?)",
                arguments: [
                    number, gap.steps.lowerBound, gap.steps.upperBound, gap.reason,
                    Self.gapChecksum(session: number, first: gap.steps.lowerBound, last: gap.steps.upperBound, reason: gap.reason),
                ])
            gaps.append(gap)
        }
        gaps.sort { $0.steps.lowerBound < $1.steps.lowerBound }
        var added = 0, duplicates = 0
        for block in upload.blocks {
            let checksum = block.checksum(session: number)
            let held = try Row.fetchOne(
                db, sql: "SELECT last_step, checksum FROM event_block WHERE session_id = ? AND first_step = ?", arguments: [number, block.firstStep]
            ).map { (lastStep: $0["last_step"] as Int, checksum: $0["checksum"] as Int64) }
            switch try BlockAdmission.of(block, checksum: checksum, storedThrough: stored, gaps: gaps, held: held) {
            case .duplicate:
                duplicates += 1
                continue
            case .grows:
                let row = try Row.fetchOne(
                    db, sql: "SELECT data, size FROM event_block WHERE session_id = ? AND first_step = ?", arguments: [number, block.firstStep])
                try BlockAdmission.checkGrowth(of: Array(row?["data"] as Data? ?? Data()), size: row?["size"] ?? 0, to: block)
                try db.execute(sql: "DELETE FROM event_block WHERE session_id = ? AND first_step = ?", arguments: [number, block.firstStep])
            case .new:
                break
            }
            try insertBlock(block, session: number, in: db)
            stored = block.lastStep
            added += 1
        }
        if let endedAt = upload.summary.endedAt, upload.blocks.last.map({ $0.lastStep == stored }) ?? true {
            // Ended once the last block is held: an end sent with earlier blocks only waits.
            var row = try SessionRow.fetch(db, id: number, path: path)
            if row.endedAt == nil {
                row.endedAt = endedAt.timeIntervalSince1970
                try row.save(db)
            }
        }
        return try Self.progress(db, session: number, added: added, duplicates: duplicates, created: created)
    }

    private static func progress(_ db: Database, session: Int, added: Int, duplicates: Int, created: Bool) throws -> ReceivedBlocks {
        let stored = try Int.fetchOne(db, sql: "SELECT max(last_step) FROM event_block WHERE session_id = ?", arguments: [session]) ?? 0
        let ended = try Bool.fetchOne(db, sql: "SELECT ended_at IS NOT NULL FROM session WHERE id = ?", arguments: [session]) ?? false
        return ReceivedBlocks(storedThrough: stored, added: added, duplicates: duplicates, ended: ended, created: created)
    }
}

extension LoggedGap {
    fileprivate static func fetchAll(_ db: Database, session: Int) throws -> [LoggedGap] {
        try Row.fetchAll(db, sql: "SELECT first_step, last_step, reason FROM gap WHERE session_id = ? ORDER BY first_step", arguments: [session]).map {
            LoggedGap(steps: ($0["first_step"] as Int)...($0["last_step"] as Int), reason: $0["reason"])
        }
    }
}
