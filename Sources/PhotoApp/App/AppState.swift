import RewindCodable

/// The whole app: which screen shows, the signed-in user, and each screen's state.
@RewindCodable
public struct AppState: Codable, Equatable, Sendable {
    /// The screen on top.
    @RewindCodable
    public enum Route: String, Codable, Equatable, Sendable {
        case login
        case signup
        case photos
    }

    public var route = Route.login
    public var user: User?
    public var login = LoginState()
    public var photos = PhotosState()

    public init() {}
}
