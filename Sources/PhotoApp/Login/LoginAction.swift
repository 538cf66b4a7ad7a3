import RewindCodable
import RewindCore

/// What happens on the login screen: user intents, the service's answer, and outputs.
@RewindCodable
public enum LoginAction: Codable, Equatable, Sendable, OutputAction, DescribedAction {
    case didUpdateUsername(String)
    case didUpdatePassword(Secret)
    case didTapLogin
    case didTapSignup
    case loginResponse(ServiceResult<User>)
    case output(Output)

    /// What the login screen tells the flow that holds it.
    @RewindCodable
    public enum Output: Codable, Equatable, Sendable {
        case userDidLogin(User)
        case userWantsToSignUp
    }

    public var origin: String { "login" }
}
