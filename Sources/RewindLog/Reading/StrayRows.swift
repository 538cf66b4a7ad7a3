/// Rows of a table that name a session the log has no row for: left behind when a session row
/// was deleted by hand, or damage. No reader shows them, so `check` reports them.
package struct StrayRows: Sendable, Equatable {
    /// `event`, `event_block`, `gap` or `session_meta`.
    package var table: String
    /// The session number the rows name.
    package var session: Int
    /// How many rows name it.
    package var count: Int

    package init(table: String, session: Int, count: Int) {
        self.table = table
        self.session = session
        self.count = count
    }
}
