/// Where a recorder writes: a SQLite log (`.sqlite(path:)`, in RewindLog) or memory
/// (`.inMemory()`, for tests).
///
/// A recorder calls its sink from its own writer thread, never from the dispatch path. Several
/// recorders may share one sink, so implementations are thread-safe.
public protocol RecordingSink: AnyObject, Sendable {
    /// Starts a session and returns its number in the log (1 for the first).
    func beginSession(_ header: SessionHeader) throws -> Int

    /// Appends events, gap markers and newly seen redacted paths to a session, atomically.
    func append(
        _ events: [RecordedEvent], gaps: [RecordingGap], redactedPaths: Set<String>, to session: Int
    ) throws

    /// The same for steps written as canonical text, as a recorder writes them; by default
    /// read back into events (``RecordedTexts/events()``) and appended as such.
    func append(
        _ texts: RecordedTexts, gaps: [RecordingGap], redactedPaths: Set<String>, to session: Int
    ) throws

    /// Marks a session as finished.
    func endSession(_ session: Int) throws
}
