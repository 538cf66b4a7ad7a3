import Foundation
import GRDB
import RewindCore
import RewindJSON

/// Writes recorded sessions into a SQLite log: one file, many sessions, WAL while recording.
///
/// The file is created with mode 0600, freed pages are zeroed (`secure_delete`), and
/// ``close()`` folds the write-ahead log back into the file so that a finished log is one
/// self-contained file.
public final class SQLiteSink: RecordingSink {
    /// The log's path.
    public let path: String
    /// How much of each session it keeps.
    public let retention: LogRetention
    private let database: DatabaseQueue
    /// Each session's block writer, which holds its open block between commits.
    private let blockWriters = BlockWriters()

    /// Opens the log at `path`, creating it when missing or empty (a file `mktemp` made); new
    /// sessions are added after the ones it holds. A new log appears whole or not at all
    /// (`LogCreation`), so a process killed while creating it leaves no half-made file.
    ///
    /// An existing file is checked read-only first (`LogSchema.checkBeforeWriting`): one that
    /// is damaged, of another application or of a newer format is refused unchanged.
    ///
    /// - Parameter retention: how much of each session it writes to keep (``LogRetention``):
    ///   the front of a session past it leaves in the commit that adds new steps.
    public convenience init(path: String, retention: LogRetention = .everything) throws(LogError) {
        try self.init(path: path, walLimit: Self.walLimit, retention: retention)
    }

    /// A writer of a log that lives only as long as its process, a copy made to be read (a
    /// team store's sessions, ``LocalCopies``): nothing written is synced, so a crash may
    /// leave it damaged, and it is never to be kept.
    package convenience init(scratchCopyAt path: String) throws(LogError) {
        try self.init(path: path, walLimit: Self.walLimit, durable: false)
    }

    /// A writer whose every commit is synced before it returns (SQLite's `synchronous = FULL`
    /// in WAL mode), so that it survives a power cut, not only a crash: what a collector
    /// acknowledges. A recorder's sink syncs at checkpoints only (`NORMAL`): a commit a step.
    package convenience init(syncingEveryCommitAt path: String) throws(LogError) {
        try self.init(path: path, walLimit: Self.walLimit, durable: true, syncEveryCommit: true)
    }

    /// The same, emptying the `-wal` past `walLimit` bytes rather than ``walLimit``: for tests.
    init(path: String, walLimit: Int, durable: Bool = true, syncEveryCommit: Bool = false, retention: LogRetention = .everything) throws(LogError) {
        self.path = path
        self.walLimit = walLimit
        self.retention = retention
        try LogSchema.checkBeforeWriting(path)
        try LogCreation.createIfNew(path, durable: durable)
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA secure_delete = ON")
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: durable ? (syncEveryCommit ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL") : "PRAGMA synchronous = OFF")
        }
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
            try database.write { db in try LogSchema.validate(db, path: path, allowEmpty: true) }
            try LogSchema.migrator.migrate(database)
        } catch let error as LogError {
            throw error
        } catch let error as DatabaseError {
            throw LogSchema.describe(error, path: path)
        } catch {
            throw LogError(.unreadable, path: path, "\(error)", underlying: error)
        }
    }

    /// The number of the session whose identity is `id`, if the log holds one.
    package func session(identifiedBy id: UUID) throws -> Int? {
        try writing { db in
            guard try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 >= LogSchema.identityFormatVersion else { return nil }
            return try Int.fetchOne(db, sql: "SELECT session_id FROM session_meta WHERE uuid = ?", arguments: [id.uuidString])
        }
    }

    public func beginSession(_ header: SessionHeader) throws -> Int {
        try writing { db in
            // A copy of a session keeps its identity (import, pull): a second copy in one log
            // would be two sessions answering to one UUID.
            if let id = header.id,
                let holder = try Int.fetchOne(db, sql: "SELECT session_id FROM session_meta WHERE uuid = ?", arguments: [id.uuidString])
            {
                throw LogError(.invalidArgument, path: path, session: holder, "holds session #\(holder) already, whose identity is \(id.uuidString)")
            }
            try db.execute(
                sql: """
                    INSERT INTO session (id, name, flow, started_at, format_version, schema_version,
                                         initial_state, initial_digest, redacted_paths)
                    VALUES (\(Self.nextSessionID), ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    header.name, header.flow, header.startedAt.timeIntervalSince1970, Self.formatVersion(of: header),
                    header.schemaVersion, header.initialState.canonicalString, header.initialDigest.databaseValue,
                    Self.pathsJSON(header.redactedPaths),
                ]
            )
            let row = SessionRow(
                id: db.lastInsertedRowID, name: header.name, flow: header.flow, startedAt: header.startedAt.timeIntervalSince1970,
                endedAt: nil, formatVersion: Int64(Self.formatVersion(of: header)), schemaVersion: Int64(header.schemaVersion),
                initialState: header.initialState.canonicalString, initialDigest: header.initialDigest.databaseValue,
                redactedPaths: Self.pathsJSON(header.redactedPaths)
            )
            try db.execute(sql: "UPDATE session SET checksum = ? WHERE id = ?", arguments: [row.checksum, row.id])
            try SessionMetaRow(sessionID: row.id, uuid: header.id ?? UUID(), metadata: header.metadata).insert(db)
            // Open from now on: a log's size cap never removes it.
            _ = blockWriters.writer(for: Int(row.id))
            return Int(row.id)
        }
    }

    /// The number after every one in use, by a session row or by rows left of a session whose
    /// row was deleted: a new session never takes over another's events or gaps. (SQLite's
    /// own choice, one past the largest row, would reuse a deleted last session's number.)
    static let nextSessionID = """
        (SELECT max(coalesce((SELECT max(id) FROM session), 0), coalesce((SELECT max(session_id) FROM event), 0),
                    coalesce((SELECT max(session_id) FROM event_block), 0), coalesce((SELECT max(session_id) FROM gap), 0)) + 1)
        """

    public func append(
        _ events: [RecordedEvent], gaps: [RecordingGap], redactedPaths: Set<String>, to session: Int
    ) throws {
        try append(gaps: gaps, redactedPaths: redactedPaths, to: session) { writer, db in try writer.append(events, in: db) }
    }

    /// Writes the steps `steps` adds to the session's blocks, `gaps` and `redactedPaths` in one
    /// transaction.
    private func append(
        gaps: [RecordingGap], redactedPaths: Set<String>, to session: Int, _ steps: (EventBlockWriter, Database) throws -> Void
    ) throws {
        let writer = blockWriters.writer(for: session)
        do {
            try writing { db in
                try steps(writer, db)
                for gap in gaps {
                    try Self.write(gap, of: session, in: db)
                }
                if !redactedPaths.isEmpty {
                    var row = try SessionRow.fetch(db, id: session, path: path)
                    row.redactedPaths = Self.pathsJSON(Self.paths(fromJSON: row.redactedPaths).union(redactedPaths))
                    try row.save(db)
                }
                if !retention.keepsEverySessionWhole {
                    try Self.trim(session, keeping: retention, in: db)
                }
                if let limit = retention.logBytes {
                    try Self.removeOldSessions(keepingUnder: limit, sparing: blockWriters.open, in: db)
                }
            }
        } catch {
            // The transaction rolled back: the file holds the open block as the last commit
            // wrote it, and the next step starts a block of its own.
            writer.discardOpenBlock()
            throw error
        }
    }

    /// Appends steps written as text: their texts go into the log's blocks as they are.
    public func append(_ texts: RecordedTexts, gaps: [RecordingGap], redactedPaths: Set<String>, to session: Int) throws {
        try append(gaps: gaps, redactedPaths: redactedPaths, to: session) { writer, db in try writer.append(texts, in: db) }
    }

    public func endSession(_ session: Int) throws {
        let writer = blockWriters.writer(for: session)
        blockWriters.remove(session)
        try writing { db in
            try writer.close(in: db)
            var row = try SessionRow.fetch(db, id: session, path: path)
            row.endedAt =
                try Double.fetchOne(
                    db, sql: "SELECT last_time FROM event_block WHERE session_id = ? ORDER BY first_step DESC LIMIT 1", arguments: [session])
                ?? row.startedAt
            try row.save(db)
        }
    }

    /// Marks the session numbered `session` as reported (``SessionReport``, in its metadata's
    /// tags) unless it is already: the first report of a session is the one kept. Returns
    /// whether it marked it.
    @discardableResult
    package func markReported(_ session: Int, _ report: SessionReport) throws -> Bool {
        try writing { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT \(SessionMetaRow.selection) FROM session_meta AS m WHERE m.session_id = ?", arguments: [session])
            else { throw LogError(.invalidArgument, path: path, session: session, "holds no session #\(session)") }
            let meta: SessionMetaRow?
            do {
                meta = try SessionMetaRow.decode(from: row, sessionID: Int64(session))
            } catch {
                throw LogError.damage(in: path, "session #\(session)'s \(error)", session: session)
            }
            guard var meta, SessionReport(tags: meta.metadata.tags) == nil else { return false }
            meta.metadata.tags.merge(report.tags) { _, new in new }
            try meta.updateTags(db)
            return true
        }
    }

    /// Keeps `verdict` in the tags of the session whose identity is `id`, in place of an
    /// earlier verdict; false when the log holds no such session.
    package func record(_ verdict: ReplayVerdict, for id: UUID) throws -> Bool {
        try writing { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT m.session_id AS session_id, \(SessionMetaRow.selection) FROM session_meta AS m WHERE m.uuid = ?",
                    arguments: [id.uuidString])
            else { return false }
            let number: Int64 = try row.stored("session_id")
            let meta: SessionMetaRow?
            do {
                meta = try SessionMetaRow.decode(from: row, sessionID: number)
            } catch {
                throw LogError.damage(in: path, "session #\(number)'s \(error)", session: Int(number))
            }
            guard var meta else { return false }
            meta.metadata.tags.merge(verdict.tags) { _, new in new }
            try meta.updateTags(db)
            return true
        }
    }

    /// The sessions of the log left unfinished (no end time) that this sink does not have
    /// open: at an app's launch, the sessions a crash or a kill ended.
    package func unfinishedSessions() throws -> [(number: Int, lastStep: Int)] {
        let open = blockWriters.open
        return try reading { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT s.id, coalesce((SELECT max(last_step) FROM event_block WHERE session_id = s.id), 0) AS last
                    FROM session AS s WHERE s.ended_at IS NULL ORDER BY s.id
                    """
            ).map { (number: $0[0] as Int, lastStep: $0[1] as Int) }.filter { !open.contains($0.number) }
        }
    }

    /// Caps the log at `pages` pages (`PRAGMA max_page_count` on the sink's connection), as a
    /// full disk would, or lifts the cap when nil: a test hook for write failures. A cap below
    /// the current size keeps the current size.
    func limitSize(toPages pages: Int?) throws {
        // SQLITE_MAX_PAGE_COUNT, the default cap; SQLite raises a cap below the current size to it.
        let limit = pages ?? 1_073_741_823
        try database.writeWithoutTransaction { db in
            _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(limit)")
        }
    }

    /// Removes a session with its events and gaps: a test hook that frees pages, which
    /// `secure_delete` on this connection zeroes, so that nothing removed stays readable.
    func removeSession(_ session: Int) throws {
        try writing { db in try Self.delete(session: session, in: db) }
    }

    /// Deletes session `session` and every row of it, in the caller's transaction: the one
    /// list of the tables that hold a session's rows.
    static func delete(session: Int, in db: Database) throws {
        for table in ["event", "event_block", "gap", "session_meta"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE session_id = ?", arguments: [session])
        }
        try db.execute(sql: "DELETE FROM session WHERE id = ?", arguments: [session])
    }

    /// Runs `body` in a read-only transaction of the writer's connection.
    func reading<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try database.read(body)
        } catch let error as DatabaseError {
            throw LogError(.unreadable, path: path, error.message ?? "\(error.resultCode)", underlying: error)
        }
    }

    /// The number of pages in the log, for ``limitSize(toPages:)``.
    func pageCount() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0 }
    }

    /// Marks a session as finished at `time` rather than at its last step: an import restores
    /// the end time its export recorded.
    package func endSession(_ session: Int, at time: Date) throws {
        let writer = blockWriters.writer(for: session)
        blockWriters.remove(session)
        try writing { db in
            try writer.close(in: db)
            var row = try SessionRow.fetch(db, id: session, path: path)
            row.endedAt = time.timeIntervalSince1970
            try row.save(db)
        }
    }

    /// Checks, read-only, that the file at `path` may be written as a log: missing, empty, or
    /// a sound Rewind log of a format this code writes. A writer that is not a sink (a tool
    /// that would replace the file) asks first, so that it refuses what a sink would.
    package static func checkBeforeWriting(_ path: String) throws(LogError) {
        try LogSchema.checkBeforeWriting(path)
    }

    /// Whether the file at `path` is missing or empty, so that a sink makes it a new log: every
    /// writer takes an empty file (one `mktemp` made) as it takes a missing one.
    package static func isNewLog(_ path: String) -> Bool {
        LogCreation.isNew(path)
    }

    /// The log format version this sink writes into every session (`format_version`).
    package static var formatVersion: Int { LogSchema.formatVersion }

    /// Whether a session of log format `version` records its steps' effects: one of format 4 or
    /// older does not, and a sink writes it again in format 4.
    package static func recordsEffects(formatVersion version: Int) -> Bool {
        version >= LogSchema.effectsFormatVersion
    }

    /// The format a session starting with `header` is written in: the one before effects for a
    /// copy of a session that did not record them. Its digests are taken by the header's rule
    /// (`SessionHeader.digestRule`), which is this format's.
    static func formatVersion(of header: SessionHeader) -> Int {
        header.recordsEffects ? LogSchema.formatVersion : LogSchema.effectsFormatVersion - 1
    }

    /// Folds the write-ahead log into the file and leaves WAL mode, so the finished log is a
    /// single file that any `sqlite3` can open read-only.
    ///
    /// Leaving WAL mode needs the file to itself. While a reader holds it open (`rewind log`
    /// run during a recording) that fails as busy without waiting, so it is tried again for a
    /// moment and then given up: the log stays in WAL mode, whole in its main file when the
    /// checkpoint could finish, and any later writer or `sqlite3` can switch it back.
    public func close() throws {
        try database.writeWithoutTransaction { db in
            // Waits (busy timeout) for readers to move past the WAL's end, then empties it.
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            for attempt in 1...Self.leaveWALAttempts {
                do {
                    try db.execute(sql: "PRAGMA journal_mode = DELETE")
                    return
                } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
                    if attempt < Self.leaveWALAttempts { usleep(20_000) }
                }
            }
        }
        try database.close()
    }

    /// How many times ``close()`` tries to leave WAL mode, 20 ms apart.
    static let leaveWALAttempts = 25

    /// Runs `body` in a write transaction; a SQLite failure (a full disk, an I/O error)
    /// becomes one line naming the log, which the recorder reports and writes as a gap's reason.
    func writing<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            let result = try database.write(body)
            try keepWALBounded()
            return result
        } catch let error as DatabaseError {
            throw LogError(.cannotWrite, path: path, error.message ?? "\(error.resultCode)", underlying: error)
        }
    }

    /// The size past which the writer empties the `-wal` itself, waiting for readers: 16 MiB.
    ///
    /// SQLite's automatic checkpoint copies the WAL into the file after a commit, but lets it
    /// start over only at a moment when no reader still reads from it; readers that overlap
    /// (two threads looping over whole-session `find`s) left no such moment, and the `-wal` grew
    /// to 202 MiB in 30 s. A `TRUNCATE` checkpoint waits, through the busy timeout, for the
    /// readers of the WAL to finish (those that start meanwhile read the file, which then holds
    /// everything), then empties it. Bound: this size, plus what one commit adds, plus what is
    /// committed while a reader's transaction outlasts the busy timeout (10 s).
    static let walLimit = 16 << 20

    /// The limit this sink keeps.
    let walLimit: Int

    /// Empties the `-wal` once it is larger than ``walLimit``. One `stat` a commit; a
    /// checkpoint that cannot finish (a reader past the busy timeout) is tried at the next.
    private func keepWALBounded() throws {
        var info = stat()
        guard stat(path + "-wal", &info) == 0, Int(info.st_size) > walLimit else { return }
        do {
            try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            return
        }
    }

    /// Writes a gap marker with its checksum. A gap that continues the session's last one for
    /// the same reason extends it, so a disk that stays full for many batches leaves one
    /// marker, not one per batch.
    private static func write(_ gap: RecordingGap, of session: Int, in db: Database) throws {
        let continued = try Row.fetchOne(
            db,
            sql: """
                SELECT rowid, first_step FROM gap WHERE session_id = ? AND last_step = ? - 1 AND reason = ? LIMIT 1
                """,
            arguments: [session, gap.steps.lowerBound, gap.reason])
        if let continued {
            let first: Int = try continued.stored("first_step")
            let checksum = gapChecksum(session: session, first: first, last: gap.steps.upperBound, reason: gap.reason)
            try db.execute(
                sql: "UPDATE gap SET last_step = ?, checksum = ? WHERE rowid = ?",
                arguments: [gap.steps.upperBound, checksum, continued["rowid"] as Int64])
        } else {
            let checksum = gapChecksum(session: session, first: gap.steps.lowerBound, last: gap.steps.upperBound, reason: gap.reason)
            try db.execute(
                sql: "INSERT INTO gap (session_id, first_step, last_step, reason, checksum) VALUES (?, ?, ?, ?, ?)",
                arguments: [session, gap.steps.lowerBound, gap.steps.upperBound, gap.reason, checksum])
        }
    }

    /// Removes the blocks of `session` before the first one `retention` keeps, with the gaps
    /// among them, and marks steps 1 through the one before it as not kept: one gap, rewritten
    /// as the window moves. In the caller's transaction, so a crash leaves the session as the
    /// last commit left it, old blocks and all or trimmed and marked.
    static func trim(_ session: Int, keeping retention: LogRetention, in db: Database) throws {
        guard let first = try retention.firstKeptStep(of: session, in: db) else { return }
        try db.execute(sql: "DELETE FROM event_block WHERE session_id = ? AND first_step < ?", arguments: [session, first])
        try db.execute(sql: "DELETE FROM gap WHERE session_id = ? AND first_step < ?", arguments: [session, first])
        let reason = RecordingGap.notKeptReason
        try db.execute(
            sql: "INSERT INTO gap (session_id, first_step, last_step, reason, checksum) VALUES (?, 1, ?, ?, ?)",
            arguments: [session, first - 1, reason, gapChecksum(session: session, first: 1, last: first - 1, reason: reason)])
    }

    /// Removes whole sessions, oldest first, while the log's pages in use (its size less its
    /// free pages, which SQLite reuses) take more than `limit` bytes; never one of `open`, the
    /// sessions this writer records. In the caller's transaction.
    static func removeOldSessions(keepingUnder limit: Int, sparing open: Set<Int>, in db: Database) throws {
        func used() throws -> Int {
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let free = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
            return (pages - free) * (try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096)
        }
        guard try used() > limit else { return }
        for session in try Int.fetchAll(db, sql: "SELECT id FROM session ORDER BY id") where !open.contains(session) {
            try delete(session: session, in: db)
            guard try used() > limit else { return }
        }
    }

    static func gapChecksum(session: Int, first: Int, last: Int, reason: String) -> Int64 {
        var checksum = RowChecksum(table: "gap")
        checksum.add(session)
        checksum.add(first)
        checksum.add(last)
        checksum.add(text: reason)
        return checksum.value
    }

    static func pathsJSON(_ paths: Set<String>) -> String {
        JSONValue.array(paths.sorted().map(JSONValue.string)).canonicalString
    }

    static func paths(fromJSON text: String) -> Set<String> {
        guard case let .array(values)? = try? JSONValue(parsing: text) else { return [] }
        return Set(values.compactMap { if case let .string(path) = $0 { path } else { nil } })
    }
}

/// The block writers of a sink's sessions, made when a session first appends.
///
/// Unchecked: every access is inside the sink's `writing`, which GRDB's queue runs one at a
/// time; the lock only guards the dictionary against `endSession` from another recorder.
private final class BlockWriters: @unchecked Sendable {
    private let lock = NSLock()
    private var writers: [Int: EventBlockWriter] = [:]

    // `lock()` and `unlock()`, not `NSLocking.withLock`: that one is back-deployed to every
    // Apple version (`@_alwaysEmitIntoClient`, docs/platforms.md), but Apple's documentation
    // long said iOS 16+, and these two leave no doubt to a reader at the package's floor.
    func writer(for session: Int) -> EventBlockWriter {
        lock.lock()
        defer { lock.unlock() }
        if let writer = writers[session] { return writer }
        let writer = EventBlockWriter(session: session)
        writers[session] = writer
        return writer
    }

    func remove(_ session: Int) {
        lock.lock()
        defer { lock.unlock() }
        writers.removeValue(forKey: session)
    }

    /// The sessions begun and not yet ended.
    var open: Set<Int> {
        lock.lock()
        defer { lock.unlock() }
        return Set(writers.keys)
    }
}

extension RecordingSink where Self == SQLiteSink {
    /// A SQLite log at `path`, created when missing, keeping what `retention` keeps of each
    /// session (everything by default).
    public static func sqlite(path: String, retention: LogRetention = .everything) throws(LogError) -> SQLiteSink {
        try SQLiteSink(path: path, retention: retention)
    }
}

extension StateDigest {
    /// The digest as SQLite stores it: the same 64 bits as a signed integer.
    var databaseValue: Int64 { Int64(bitPattern: rawValue) }

    init(databaseValue: Int64) {
        self.init(rawValue: UInt64(bitPattern: databaseValue))
    }
}
