import GRDB

extension LogReader {
    /// A number that changes whenever another connection commits to the log: SQLite's
    /// `PRAGMA data_version`, the cheapest way to learn that a recorder wrote something.
    ///
    /// Only comparisons between two calls on the same reader mean anything.
    package func dataVersion() throws(LogError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
    }

    /// Session `number` as the log holds it now, read alone (its row and its events' counts,
    /// not every session's): what a follower asks after each commit.
    package func session(number: Int) throws(LogError) -> SessionSummary {
        guard let session = try allSessions(allowingDamage: true, only: number).first else {
            throw LogError(.noSuchSession, path: path, session: number, "no session #\(number)")
        }
        return try checked(session)
    }

    /// The session with the largest number, the one a recorder writes last; nil when the log
    /// holds none.
    package func newestSession() throws(LogError) -> SessionSummary? {
        let number = try read { db in try Int.fetchOne(db, sql: "SELECT max(id) FROM session") }
        return try number.map { number throws(LogError) in try session(number: number) }
    }
}
