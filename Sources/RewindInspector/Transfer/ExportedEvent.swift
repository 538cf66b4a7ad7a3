import Foundation
import RewindJSON

/// An event line: one step, and the whole state after it.
public struct ExportedEvent: Sendable, Equatable {
    public var session: Int
    public var step: Int
    public var time: Date
    public var origin: String
    public var actionName: String
    public var action: JSONValue
    public var cause: Int?
    public var outputs: [JSONValue]
    /// The digest stored for the step.
    public var digest: StateDigest
    /// The state after the step, rebuilt from the log's keyframes and patches.
    public var state: JSONValue
}
