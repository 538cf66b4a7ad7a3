import RewindJSON

/// One stored row of a session as ``LogReader/scan(_:_:)`` hands it over: its step, and the
/// event decoded from it or why it could not be decoded.
package struct StoredStep: Sendable {
    /// The step number of the row.
    package var step: Int
    /// The row as an event, or the one-line reason it is unreadable.
    package var event: Result<LoggedEvent, LogError>
    /// How the row compared with its checksum; the event is decoded either way, so that an
    /// audit can go on checking it.
    package var rowCheck: RowCheck = .verified
    /// The steps of the block that stores it, in a session of log format 3; nil for a step
    /// stored as a row of its own. Its checksum, and any damage that keeps it from being read,
    /// are the block's.
    package var block: ClosedRange<Int>?
}
