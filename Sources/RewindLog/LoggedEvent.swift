import Foundation
import RewindJSON

/// One recorded step as read back from a log.
public struct LoggedEvent: Sendable, Equatable {
    public var step: Int
    public var time: Date
    public var origin: String
    public var actionName: String
    public var action: JSONValue
    public var cause: Int?
    public var outputs: [JSONValue]
    public var digest: StateDigest
    /// The whole state when this step is a keyframe.
    public var keyframe: JSONValue?
    /// The change from the previous step when it is not.
    public var patch: JSONPatch?
}

/// Steps missing from a session, and why.
public struct LoggedGap: Sendable, Equatable {
    public var steps: ClosedRange<Int>
    public var reason: String
}

/// One stored row of a session as ``LogReader/scan(_:_:)`` hands it over: its step, and the
/// event decoded from it or why it could not be decoded.
public struct StoredStep: Sendable {
    /// The step number of the row.
    public var step: Int
    /// The row as an event, or the one-line reason it is unreadable.
    public var event: Result<LoggedEvent, LogError>
}
