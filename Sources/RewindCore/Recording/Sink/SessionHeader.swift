import Foundation
import RewindJSON

/// What a sink stores at the start of a session.
public struct SessionHeader: Sendable, Equatable {
    public var name: String?
    public var flow: String
    public var startedAt: Date
    /// The app's version of its state and action types.
    public var schemaVersion: Int
    public var initialState: JSONValue
    public var initialDigest: StateDigest
    /// Paths of the fields that were redacted, like `password`.
    public var redactedPaths: Set<String>
    /// The session's identity; nil for a session that has none yet (a log of format 3 or
    /// older, read before a writer migrated it).
    public var id: UUID?
    /// What a team finds the session by.
    public var metadata: SessionMetadata
    /// Whether the session's steps say what each asked for (``RecordedEffects``): false only
    /// for a copy of a session recorded before logs held them, which a sink keeps saying.
    public var recordsEffects: Bool

    public init(
        name: String?, flow: String, startedAt: Date, schemaVersion: Int,
        initialState: JSONValue, initialDigest: StateDigest, redactedPaths: Set<String>,
        id: UUID? = nil, metadata: SessionMetadata = SessionMetadata(), recordsEffects: Bool = true
    ) {
        self.recordsEffects = recordsEffects
        self.id = id
        self.metadata = metadata
        self.name = name
        self.flow = flow
        self.startedAt = startedAt
        self.schemaVersion = schemaVersion
        self.initialState = initialState
        self.initialDigest = initialDigest
        self.redactedPaths = redactedPaths
    }
}
