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
