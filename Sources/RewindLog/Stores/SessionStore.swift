import Foundation
import RewindCore

/// Where sessions are kept, read and written: a log on this machine (``LogFileStore``), a
/// team's store (`TeamStore`, PostgreSQL), or a collector (`CollectorStore`). Every verb
/// reads and writes sessions through this, so a verb takes a path or a store's location alike
/// (`SessionStores.withStore(_:token:_:)` opens any of the three).
///
/// Its write side, ``SessionDestination``, is public on its own: it is what an app's
/// `Uploader` sends to. The read side is this package's: it hands out local copies for this
/// package's readers (``ReadableSessions``), which an app has no use for.
///
/// Readers read a log (``LogReader`` and everything built on it): a store elsewhere copies
/// the sessions a verb reads into a log on this machine and hands out a name that readers
/// open (``ReadableSessions``). A copy holds what the verb will read and no more: one
/// step's `show` copies the blocks that rebuild that step, not the session.
package protocol SessionStore: SessionDestination {
    /// Its sessions that meet `filter`, in order, numbered as `--session` takes them.
    func sessions(matching filter: SessionFilter) async throws -> [SessionSummary]

    /// What `selection` names, made readable: readers opened at the path it gives read
    /// those sessions (and, of a store elsewhere, only those), numbered as ``sessions(matching:)``
    /// numbers them.
    func readable(_ selection: SessionSelection) async throws -> ReadableSessions

    /// The session `id`, numbered as ``sessions(matching:)`` numbers it, and the bytes its
    /// blocks hold once inflated (what reading it whole holds in memory), found without
    /// listing the others or reading a block; nil when the store does not hold it.
    func session(_ id: UUID) async throws -> (summary: SessionSummary, inflatedBytes: Int)?

    /// Its sessions that meet `filter`, newest first, from just after `cursor` (the first page
    /// when nil), at most `limit` (up to ``SessionPage/maximumSize``). A session's `number` is
    /// its log's for a log, 0 where the store would have to count to know it.
    func sessions(matching filter: SessionFilter, after cursor: SessionPage.Cursor?, limit: Int) async throws -> SessionPage
}

extension SessionStore {
    /// Lists every session and keeps the page: for a store that holds one session or a few
    /// (a collector's session); a log and a team store page for themselves.
    package func sessions(matching filter: SessionFilter, after cursor: SessionPage.Cursor?, limit: Int) async throws -> SessionPage {
        SessionPage(from: try await sessions(matching: filter), matching: filter, after: cursor, limit: limit)
    }
}
