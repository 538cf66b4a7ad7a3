import Foundation
import GRDB

extension SQLiteSink {
    /// The last step held of the session `id`, as ``SessionDestination/progress(of:)``.
    package func progress(of id: UUID) throws -> ReceivedBlocks? {
        try reading { db in
            guard let number = try Int.fetchOne(db, sql: "SELECT session_id FROM session_meta WHERE uuid = ?", arguments: [id.uuidString]) else {
                return nil
            }
            return try Self.progress(db, session: number)
        }
    }

    /// Stores what `upload` holds that the log lacks, in one transaction, as
    /// ``SessionDestination/receive(_:)`` says.
    package func receive(_ upload: StoredSessionCopy) throws -> ReceivedBlocks {
        try writing { db in try receive(upload, in: db) }
    }

    /// Stores each of `uploads` as ``receive(_:)`` does, all in one transaction, each in a
    /// savepoint of its own: one commit, and one sync, for many clients' uploads (a group
    /// commit), and an upload refused leaves the others as they would be alone. The result of
    /// each, in order; a failure to commit throws for all.
    package func receive(all uploads: [StoredSessionCopy]) throws -> [Result<ReceivedBlocks, any Error>] {
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

    /// ``receive(_:)`` in `db`'s transaction: the stages of ``CopyIntake``, on the log's rows.
    private func receive(_ upload: StoredSessionCopy, in db: Database) throws -> ReceivedBlocks {
        var intake = CopyIntake(upload)
        var number = 0
        var step = try intake.next()
        while true {
            switch step {
            case .findSession:
                guard let found = try Row.fetchOne(db, sql: "SELECT session_id, app FROM session_meta WHERE uuid = ?", arguments: [upload.id.uuidString])
                else {
                    step = intake.notFound()
                    continue
                }
                number = found["session_id"]
                step = intake.found(
                    number: number, app: found["app"],
                    storedThrough: try Int.fetchOne(db, sql: "SELECT max(last_step) FROM event_block WHERE session_id = ?", arguments: [number]) ?? 0,
                    ended: try Bool.fetchOne(db, sql: "SELECT ended_at IS NOT NULL FROM session WHERE id = ?", arguments: [number]) ?? false)
            case let .writeHeader(header):
                number = try insertSession(header, in: db)
                step = try intake.headerWritten(number: number)
            case .readGaps:
                step = try intake.read(gaps: try LoggedGap.fetchAll(db, session: number))
            case let .readBlocks(first):
                var blocks: [Int: (lastStep: Int, checksum: Int64)] = [:]
                for row in try Row.fetchAll(
                    db, sql: "SELECT first_step, last_step, checksum FROM event_block WHERE session_id = ? AND first_step >= ?", arguments: [number, first])
                {
                    blocks[row["first_step"]] = (row["last_step"], row["checksum"])
                }
                step = try intake.read(blocks: blocks)
            case let .readBlock(first):
                let row = try Row.fetchOne(db, sql: "SELECT data, size FROM event_block WHERE session_id = ? AND first_step = ?", arguments: [number, first])
                step = try intake.read(block: row.map { (Array($0["data"] as Data), $0["size"]) })
            case let .write(.gap(gap)):
                try db.execute(
                    sql: "INSERT INTO gap (session_id, first_step, last_step, reason, checksum) VALUES (?, ?, ?, ?, ?)",
                    arguments: [
                        number, gap.steps.lowerBound, gap.steps.upperBound, gap.reason,
                        Self.gapChecksum(session: number, first: gap.steps.lowerBound, last: gap.steps.upperBound, reason: gap.reason),
                    ])
                step = try intake.next()
            case let .write(.removeBlock(firstStep)):
                try db.execute(sql: "DELETE FROM event_block WHERE session_id = ? AND first_step = ?", arguments: [number, firstStep])
                step = try intake.next()
            case let .write(.block(block, _)):
                try insertBlock(block, session: number, in: db)
                step = try intake.next()
            case let .write(.end(endedAt)):
                var row = try SessionRow.fetch(db, id: number, path: path)
                row.endedAt = endedAt.timeIntervalSince1970
                try row.save(db)
                step = try intake.next()
            case .finish:
                // Each block's insert keeps the session's counts already.
                step = try intake.next()
            case let .done(received):
                return received
            }
        }
    }

    private static func progress(_ db: Database, session: Int) throws -> ReceivedBlocks {
        let stored = try Int.fetchOne(db, sql: "SELECT max(last_step) FROM event_block WHERE session_id = ?", arguments: [session]) ?? 0
        let ended = try Bool.fetchOne(db, sql: "SELECT ended_at IS NOT NULL FROM session WHERE id = ?", arguments: [session]) ?? false
        return ReceivedBlocks(storedThrough: stored, added: 0, duplicates: 0, ended: ended, created: false)
    }
}

extension LoggedGap {
    fileprivate static func fetchAll(_ db: Database, session: Int) throws -> [LoggedGap] {
        try Row.fetchAll(db, sql: "SELECT first_step, last_step, reason FROM gap WHERE session_id = ? ORDER BY first_step", arguments: [session]).map {
            LoggedGap(steps: ($0["first_step"] as Int)...($0["last_step"] as Int), reason: $0["reason"])
        }
    }
}
