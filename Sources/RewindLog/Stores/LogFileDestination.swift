import Foundation
import RewindCore

/// A log on this machine as a ``SessionDestination``: the store of a collector that runs
/// with no database (`rewind serve --store sessions.rewind`).
///
/// Every commit is synced before it is acknowledged, and a sync takes milliseconds, not
/// microseconds: uploads that arrive while one commits are stored together at the next, one
/// transaction and one sync for all of them, each in a savepoint of its own (a group commit;
/// ``SQLiteSink/receive(all:)``).
package final class LogFileDestination: SessionDestination {
    private let sink: SQLiteSink
    private let committer: GroupCommitter

    /// Opens (or creates) the log at `path` for writing, every commit synced.
    package init(path: String) throws(LogError) {
        sink = try SQLiteSink(syncingEveryCommitAt: path)
        committer = GroupCommitter(sink: sink)
    }

    package var name: String { sink.path }

    package func receive(_ upload: StoredSessionCopy) async throws -> ReceivedBlocks {
        try await committer.submit(upload)
    }

    package func progress(of id: UUID) async throws -> ReceivedBlocks? {
        try await GroupCommitter.onQueue { [sink] in try sink.progress(of: id) }
    }

    package func record(_ verdict: ReplayVerdict, for id: UUID) async throws -> Bool {
        try await GroupCommitter.onQueue { [sink] in try sink.record(verdict, for: id) }
    }

    package func close() async {
        try? sink.close()
    }
}

/// Gathers the uploads that arrive while a commit runs, and stores them at the next, together.
private actor GroupCommitter {
    private let sink: SQLiteSink
    private var pending: [(upload: StoredSessionCopy, continuation: CheckedContinuation<ReceivedBlocks, any Error>)] = []
    private var committing = false

    init(sink: SQLiteSink) {
        self.sink = sink
    }

    func submit(_ upload: StoredSessionCopy) async throws -> ReceivedBlocks {
        try await withCheckedThrowingContinuation { continuation in
            pending.append((upload, continuation))
            if !committing {
                committing = true
                Task { await self.commitPending() }
            }
        }
    }

    private func commitPending() async {
        while !pending.isEmpty {
            let batch = pending
            pending = []
            let uploads = batch.map(\.upload)
            let results: [Result<ReceivedBlocks, any Error>]
            do {
                results = try await Self.onQueue { [sink] in try sink.receive(all: uploads) }
            } catch {
                results = Array(repeating: .failure(error), count: batch.count)
            }
            for (item, result) in zip(batch, results) { item.continuation.resume(with: result) }
        }
        committing = false
    }

    /// SQLite's writes and syncs block: they run on this queue, not on the threads of Swift's
    /// concurrency pool (two on a 2-core machine), which the server's requests share.
    private static let queue = DispatchQueue(label: "rewind.log-destination")

    static func onQueue<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
