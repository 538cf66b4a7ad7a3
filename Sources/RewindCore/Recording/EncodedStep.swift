import Foundation
import RewindJSON

/// A step as the encoder thread hands it to the writer thread: encoded, not yet diffed.
struct EncodedStep: Sendable {
    var step: Int
    var time: Date
    var origin: String
    var actionName: String
    var action: JSONValue
    var cause: Int?
    var outputs: [JSONValue]
    var digest: StateDigest
    /// The whole state after the step; the writer stores it or its patch.
    var state: JSONValue
}
