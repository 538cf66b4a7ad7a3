/// Why a patch could not be applied, or could not be read from its JSON form.
///
/// Its description reads like
/// `cannot apply patch operation 1: no element 7 in the array at photos, which has 5`.
public struct JSONPatchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Which of the two things went wrong.
    public enum Kind: Hashable, Sendable {
        /// An operation addresses something the value does not have.
        case inapplicable
        /// The JSON given to `JSONPatch(json:)` is not a patch.
        case malformed
    }

    /// Which of the two things went wrong.
    public let kind: Kind
    /// The position of the offending operation in the patch, if it got that far.
    public let operationIndex: Int?
    /// What was wrong, in a few lowercase words.
    public let reason: String

    /// An error about the operation at `operationIndex`, if any.
    public init(kind: Kind, operationIndex: Int?, reason: String) {
        self.kind = kind
        self.operationIndex = operationIndex
        self.reason = reason
    }

    public var description: String {
        let prefix = kind == .inapplicable ? "cannot apply patch" : "invalid patch JSON"
        guard let operationIndex else { return "\(prefix): \(reason)" }
        return "\(prefix) operation \(operationIndex): \(reason)"
    }
}
