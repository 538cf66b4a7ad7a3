import Foundation
import RewindCore

/// One upload a ``FlightRecorder`` made of a reported session: what went up, or why it could
/// not (the session stays in the log, reported, and goes at the next launch or report).
public struct FlightUpload: Sendable {
    /// The session's identity.
    public var session: UUID
    /// Why it was sent.
    public var report: SessionReport
    /// What the upload did, or the error that stopped it.
    public var result: Result<Uploader.Outcome, any Error>
    /// A link that opens the session's report in any browser for a week, without a token,
    /// when it went to a collector (`rewind serve`) that makes them: for the bug report the
    /// app files.
    public var link: URL? = nil
}
