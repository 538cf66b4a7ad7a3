import Foundation
import RewindCore
import RewindJSON

/// The header line of a session: everything its `session` row holds.
///
/// Its own type beside `SessionSummary`: it holds the initial state whole, which an import
/// needs and a listing never reads, and none of the counts and checks a reader adds.
public struct ExportedSession: Sendable, Equatable {
    public var session: Int
    public var name: String?
    public var flow: String
    public var startedAt: Date
    /// Nil when the session never ended (still recording, or the recorder crashed).
    public var endedAt: Date?
    public var formatVersion: Int
    public var schemaVersion: Int
    /// Fields whose values are redacted, sorted, like `password` or `photos[*].secret`.
    public var redactedPaths: [String]
    public var initialState: JSONValue
    /// The digest stored beside the initial state.
    public var initialDigest: StateDigest
    /// The session's identity; nil for a session of a log no writer has migrated to format 4,
    /// and in exports written before format 4.
    public var id: UUID? = nil
    /// What the session was recorded with; nil where `id` is.
    public var metadata: SessionMetadata? = nil
}
