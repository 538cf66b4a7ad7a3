/// Rows of a table that name a session the log has no row for: left behind when a session row
/// was deleted by hand, or damage. No reader shows them, so `check` reports them.
public struct StrayRows: Sendable, Equatable {
    /// `event`, `event_block`, `gap` or `session_meta`.
    public var table: String
    /// The session number the rows name.
    public var session: Int
    /// How many rows name it.
    public var count: Int

    public init(table: String, session: Int, count: Int) {
        self.table = table
        self.session = session
        self.count = count
    }
}
