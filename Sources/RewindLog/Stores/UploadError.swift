/// Why an upload's body, or a session it carries, was refused: what a collector answers
/// with a 4xx, and what a client reads back from it.
public struct UploadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as the collector's error bodies name it (docs/collector.md).
    public enum Kind: String, Sendable, Equatable {
        /// The body is not an upload of this version (413 when it is only too large).
        case malformed = "malformed_body"
        /// A limit of ``UploadLimits`` was passed.
        case tooLarge = "too_large"
        /// A block's data does not match its checksum, or does not inflate to its size.
        case badChecksum = "bad_checksum"
        /// A block does not follow what the store holds of its session.
        case outOfOrder = "out_of_order"
        /// A block that the store holds under the same first step holds other steps.
        case conflict = "conflict"
        /// A value is out of its bounds (a name past its length, a step below 1).
        case invalidValue = "invalid_value"
        /// The store holds the session as another app's: an upload token writes its own app's
        /// sessions only.
        case otherApp = "other_app"
    }

    public var kind: Kind
    /// One line for a person.
    public var message: String
    /// The last step the store holds of the session, when that is what the client needs to go on.
    public var storedThrough: Int?

    public init(_ kind: Kind, _ message: String, storedThrough: Int? = nil) {
        self.kind = kind
        self.message = message
        self.storedThrough = storedThrough
    }

    public var description: String { message }
}
