import RewindJSON

/// One stored row of a session as ``LogReader/scan(_:_:)`` hands it over: its step, and the
/// event decoded from it or why it could not be decoded.
public struct StoredStep: Sendable {
    /// The step number of the row.
    public var step: Int
    /// The row as an event, or the one-line reason it is unreadable.
    public var event: Result<LoggedEvent, LogError>
    /// How the row compared with its checksum; the event is decoded either way, so that an
    /// audit can go on checking it.
    public var rowCheck: RowCheck = .verified
}
