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

    public init(
        name: String?, flow: String, startedAt: Date, schemaVersion: Int,
        initialState: JSONValue, initialDigest: StateDigest, redactedPaths: Set<String>
    ) {
        self.name = name
        self.flow = flow
        self.startedAt = startedAt
        self.schemaVersion = schemaVersion
        self.initialState = initialState
        self.initialDigest = initialDigest
        self.redactedPaths = redactedPaths
    }
}
