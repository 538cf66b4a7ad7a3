import RewindCodable
import RewindCore

/// The login screen: two fields, their validity, and the request's progress.
@RewindCodable
public struct LoginState: Codable, Equatable, Sendable {
    /// Progress of the sign-in request.
    @RewindCodable
    public enum Status: String, Codable, Equatable, Sendable {
        case idle
        case inFlight
        case failed
        case succeeded
    }

    public var username = ""
    /// Secret: the log keeps only its length.
    public var password = Secret("")
    /// Nil until the user taps login; then whether the field passed validation.
    public var isUsernameValid: Bool?
    /// Nil until the user taps login; then whether the field passed validation.
    public var isPasswordValid: Bool?
    public var status = Status.idle
    /// What to tell the user after a failed validation or request.
    public var errorMessage: String?

    public init() {}
}
