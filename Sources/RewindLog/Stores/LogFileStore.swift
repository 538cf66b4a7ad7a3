import Foundation
import RewindCore

/// A log on this machine as a ``SessionStore``: read in place, and written by one sink of its
/// own, every commit synced before it is acknowledged (the store of a collector that runs with
/// no database, `rewind serve --store sessions.rewind`, and of `rewind pull`).
///
/// A sync takes milliseconds, not microseconds: copies that arrive while one commits are
/// stored together at the next, one transaction and one sync for all of them, each in a
/// savepoint of its own (a group commit; ``SQLiteSink/receive(all:)``).
package final class LogFileStore: SessionStore {
    /// The log's path.
    package let name: String
    private let committer: GroupCommitter

    /// The log at `path`, read in place; its first write opens it (or creates it).
    package init(path: String) {
        name = path
        committer = GroupCommitter(path: path, sink: nil)
    }

    /// The log at `path`, opened (or created) for writing at once, so that a log that cannot
    /// be written is said before the first copy arrives.
    package init(writingTo path: String) throws(LogError) {
        name = path
        committer = GroupCommitter(path: path, sink: try SQLiteSink(syncingEveryCommitAt: path))
    }

    package func sessions(matching filter: SessionFilter) async throws -> [SessionSummary] {
        try LogReader(path: name).sessions().filter(filter.matches)
    }

    /// The log itself: its readers choose the sessions and say what is missing.
    package func readable(_ selection: SessionSelection) async throws -> ReadableSessions {
        ReadableSessions(inPlace: name)
    }

    package func session(_ id: UUID) async throws -> (summary: SessionSummary, inflatedBytes: Int)? {
        let reader = try LogReader(path: name)
        guard let summary = try reader.sessions().first(where: { $0.id == id }) else { return nil }
        return (summary, try reader.inflatedSize(of: summary))
    }

    package func sessions(matching filter: SessionFilter, after cursor: SessionPage.Cursor?, limit: Int) async throws -> SessionPage {
        try LogReader(path: name).sessionPage(matching: filter, after: cursor, limit: limit)
    }

    package func receive(_ copy: StoredSessionCopy) async throws -> ReceivedBlocks {
        try await committer.submit(copy)
    }

    package func progress(of id: UUID) async throws -> ReceivedBlocks? {
        try await committer.withSink { try $0.progress(of: id) }
    }

    package func record(_ verdict: ReplayVerdict, for id: UUID) async throws -> Bool {
        // Read first: a missing or damaged log is refused as every reader refuses it, not made.
        guard try LogReader(path: name).formatVersion >= LogSchema.identityFormatVersion else { return false }
        return try await committer.withSink { try $0.record(verdict, for: id) }
    }

    package func close() async {
        await committer.close()
    }
}

/// The log's one writer: opens its sink when first asked, and gathers the copies that arrive
/// while a commit runs to store them at the next, together.
private actor GroupCommitter {
    private let path: String
    private var sink: SQLiteSink?
    private var pending: [(copy: StoredSessionCopy, continuation: CheckedContinuation<ReceivedBlocks, any Error>)] = []
    private var committing = false

    init(path: String, sink: SQLiteSink?) {
        self.path = path
        self.sink = sink
    }

    func submit(_ copy: StoredSessionCopy) async throws -> ReceivedBlocks {
        let sink = try await opened()
        return try await withCheckedThrowingContinuation { continuation in
            pending.append((copy, continuation))
            if !committing {
                committing = true
                Task { await self.commitPending(sink) }
            }
        }
    }

    /// Runs `body` with the sink, on the writers' queue.
    func withSink<T: Sendable>(_ body: @escaping @Sendable (SQLiteSink) throws -> T) async throws -> T {
        let sink = try await opened()
        return try await Self.onQueue { try body(sink) }
    }

    func close() {
        try? sink?.close()
        sink = nil
    }

    private func opened() async throws -> SQLiteSink {
        if let sink { return sink }
        let path = path
        let made = try await Self.onQueue { try SQLiteSink(syncingEveryCommitAt: path) }
        // Another caller may have opened it meanwhile: one writer, the first.
        if let sink {
            try? made.close()
            return sink
        }
        sink = made
        return made
    }

    private func commitPending(_ sink: SQLiteSink) async {
        while !pending.isEmpty {
            let batch = pending
            pending = []
            let copies = batch.map(\.copy)
            let results: [Result<ReceivedBlocks, any Error>]
            do {
                results = try await Self.onQueue { try sink.receive(all: copies) }
            } catch {
                results = Array(repeating: .failure(error), count: batch.count)
            }
            for (item, result) in zip(batch, results) { item.continuation.resume(with: result) }
        }
        committing = false
    }

    /// SQLite's writes and syncs block: they run on this queue, not on the threads of Swift's
    /// concurrency pool (two on a 2-core machine), which the server's requests share.
    private static let queue = DispatchQueue(label: "rewind.log-store")

    static func onQueue<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
