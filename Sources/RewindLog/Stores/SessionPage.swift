import Foundation

/// Sessions of a store newest first, a page at a time (the collector's sessions page): each
/// page starts after the ``Cursor`` the one before ended at, so that a page costs the same
/// whether it is the first or the thousandth, and sessions that arrive meanwhile do not shift
/// the pages after.
package struct SessionPage: Sendable, Equatable {
    /// A place in the order: a session's start and identity (the tie-breaker between sessions
    /// that started in the same instant).
    package struct Cursor: Sendable, Hashable, CustomStringConvertible {
        /// The start, in seconds since 1970, exactly as stored.
        package var startedAt: Double
        package var id: UUID

        package init(startedAt: Double, id: UUID) {
            self.startedAt = startedAt
            self.id = id
        }

        /// The cursor after `session`; nil for a session without an identity.
        package init?(after session: SessionSummary) {
            guard let id = session.id else { return nil }
            self.init(startedAt: session.startedAt.timeIntervalSince1970, id: id)
        }

        /// `1800000000.25_1B4E28BA-…`: how a page's link carries it.
        package var description: String { "\(startedAt)_\(id.uuidString)" }

        /// The cursor `description` wrote; nil for any other text (at most 80 bytes read).
        package init?(_ text: String) {
            guard text.utf8.count <= 80, let underscore = text.firstIndex(of: "_"),
                let startedAt = Double(text[..<underscore]), startedAt.isFinite,
                let id = UUID(uuidString: String(text[text.index(after: underscore)...]))
            else { return nil }
            self.init(startedAt: startedAt, id: id)
        }

        /// Whether `session` comes after the cursor, newest first: it started earlier, or at
        /// the same instant with a smaller identity (compared as the stores compare it, by its
        /// text in upper case, which orders as its bytes).
        package func precedes(_ session: SessionSummary) -> Bool {
            guard let other = session.id else { return false }
            let started = session.startedAt.timeIntervalSince1970
            return started < startedAt || (started == startedAt && other.uuidString < id.uuidString)
        }
    }

    /// The sessions, newest first; only sessions with an identity (log format 4 on).
    package var sessions: [SessionSummary]
    /// Where the next page, of older sessions, starts; nil when there is none.
    package var next: Cursor?

    package init(sessions: [SessionSummary], next: Cursor?) {
        self.sessions = sessions
        self.next = next
    }

    /// The most sessions a page may hold: what a store reads for one request is bounded.
    package static let maximumSize = 500

    /// The page of `all` (any order) that meets `filter` and comes after `cursor`, at most
    /// `limit` sessions: what a store that cannot page by itself answers.
    package init(from all: [SessionSummary], matching filter: SessionFilter, after cursor: Cursor?, limit: Int) {
        let limit = max(1, min(limit, Self.maximumSize))
        let newestFirst =
            all.filter { $0.id != nil && filter.matches($0) && (cursor?.precedes($0) ?? true) }
            .sorted { a, b in
                let (x, y) = (a.startedAt.timeIntervalSince1970, b.startedAt.timeIntervalSince1970)
                return x != y ? x > y : (a.id?.uuidString ?? "") > (b.id?.uuidString ?? "")
            }
        self.init(sessions: newestFirst.count > limit ? Array(newestFirst.prefix(limit)) : newestFirst, next: nil)
        if newestFirst.count > limit { next = sessions.last.flatMap(Cursor.init(after:)) }
    }
}
