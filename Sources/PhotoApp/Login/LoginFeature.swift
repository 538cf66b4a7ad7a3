import RewindCore

/// The login screen's reducer: validation first, then the sign-in request and its outputs.
public struct LoginFeature: Reducer, Sendable {
    /// The shortest password accepted: the only thing validation reads from the password, so
    /// a replayed placeholder of the same length validates the same way.
    public static let minimumPasswordLength = 8

    let backend: FakeBackend

    public init(backend: FakeBackend) {
        self.backend = backend
    }

    public func reduce(into state: inout LoginState, action: LoginAction) -> Effect<LoginAction> {
        switch action {
        case let .didUpdateUsername(username):
            state.username = username
            state.isUsernameValid = nil
            state.clearError()
            return .none

        case let .didUpdatePassword(password):
            state.password = password
            state.isPasswordValid = nil
            state.clearError()
            return .none

        case .didTapLogin:
            guard state.status != .inFlight else { return .none }
            state.isUsernameValid = Self.isValid(username: state.username)
            state.isPasswordValid = state.password.count >= Self.minimumPasswordLength
            guard state.isUsernameValid == true, state.isPasswordValid == true else {
                state.status = .idle
                state.errorMessage = "Please correct the highlighted fields."
                return .none
            }
            state.status = .inFlight
            state.errorMessage = nil
            let (username, password) = (state.username, state.password)
            return .run(name: "auth.login") { [backend] send in
                await send(.loginResponse(backend.login(username: username, password: password)))
            }

        case let .loginResponse(.success(user)):
            state.status = .succeeded
            return .output(.userDidLogin(user))

        case let .loginResponse(.failure(message)):
            state.status = .failed
            state.errorMessage = message
            return .none

        case .didTapSignup:
            return .output(.userWantsToSignUp)

        case .output:
            return .none
        }
    }

    /// Three to twenty letters, digits, dots or underscores.
    static func isValid(username: String) -> Bool {
        (3...20).contains(username.count)
            && username.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_") }
    }
}

extension LoginState {
    /// Editing after a failure puts the form back to idle, without the old message.
    mutating func clearError() {
        errorMessage = nil
        if status == .failed { status = .idle }
    }
}
