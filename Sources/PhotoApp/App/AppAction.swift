import RewindCodable
import RewindCore

/// What happens in the app: each screen's actions, and the app's own.
@RewindCodable
public enum AppAction: Codable, Equatable, Sendable, DescribedAction {
    case login(LoginAction)
    case photos(PhotosAction)
    case didDismissSignup
    case didTapLogout

    public var origin: String {
        switch self {
        case let .login(action): action.origin
        case let .photos(action): action.origin
        case .didDismissSignup, .didTapLogout: "app"
        }
    }

    public var name: String {
        switch self {
        case let .login(action): action.name
        case let .photos(action): action.name
        case .didDismissSignup: "didDismissSignup"
        case .didTapLogout: "didTapLogout"
        }
    }
}
