import RewindCore

/// The app flow: the login screen, then on *user did log in* the photo list.
public struct AppFeature: Reducer, Sendable {
    let backend: FakeBackend

    public init(backend: FakeBackend) {
        self.backend = backend
    }

    public func reduce(into state: inout AppState, action: AppAction) -> Effect<AppAction> {
        switch action {
        case let .login(.output(.userDidLogin(user))):
            state.user = user
            state.route = .photos
            state.photos = PhotosState()
            return PhotosFeature(backend: backend)
                .reduce(into: &state.photos, action: .didAppear)
                .map(AppAction.photos)

        case .login(.output(.userWantsToSignUp)):
            state.route = .signup
            return .none

        case let .login(childAction):
            return LoginFeature(backend: backend)
                .reduce(into: &state.login, action: childAction)
                .map(AppAction.login)

        case let .photos(childAction):
            // Answers that arrive after logging out belong to a screen that is gone.
            guard state.route == .photos else { return .none }
            return PhotosFeature(backend: backend)
                .reduce(into: &state.photos, action: childAction)
                .map(AppAction.photos)

        case .didDismissSignup:
            state.route = .login
            return .none

        case .didTapLogout:
            state = AppState()
            return .none
        }
    }
}
