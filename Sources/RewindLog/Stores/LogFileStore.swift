import Foundation
import RewindCore

/// A log on this machine, as a ``SessionStore``: read in place.
package struct LogFileStore: SessionStore {
    /// The log's path.
    package let name: String

    package init(path: String) {
        self.name = path
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

    /// Written by a sink of its own: the log may be a collector's, taking uploads meanwhile
    /// (SQLite takes one writer at a time; the sink waits its turn).
    package func record(_ verdict: ReplayVerdict, for id: UUID) async throws -> Bool {
        // Read first: a missing or damaged log is refused as every reader refuses it, not made.
        guard try LogReader(path: name).formatVersion >= LogSchema.identityFormatVersion else { return false }
        let sink = try SQLiteSink(syncingEveryCommitAt: name)
        do {
            let recorded = try sink.record(verdict, for: id)
            try sink.close()
            return recorded
        } catch {
            try? sink.close()
            throw error
        }
    }

    package func close() async {}
}
