import Foundation
import RewindCore
import RewindJSON

/// An event line: one step, and the whole state after it.
///
/// Its own type beside `LoggedEvent`: a line of an export holds the session's number and the
/// whole state after the step, rebuilt, so that a line is read alone (`jq`, `import`) without
/// the lines before it.
public struct ExportedEvent: Sendable, Equatable {
    public var session: Int
    public var step: Int
    public var time: Date
    public var origin: String
    public var actionName: String
    public var action: JSONValue
    public var cause: Int?
    public var outputs: [JSONValue]
    /// What the step asked for; nil for a session that did not record it, and where the line
    /// has no `effects` (none asked for).
    public var effects: RecordedEffects?
    /// The digest stored for the step.
    public var digest: StateDigest
    /// The state after the step, rebuilt from the log's keyframes and patches.
    public var state: JSONValue
}
