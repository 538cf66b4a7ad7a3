import RewindCore

/// A plausible user for the random driver: picks the next action from what the screen shows.
///
/// Every choice comes from one seeded generator, so the same seed plays the same session.
struct RandomUser {
    var random: SeededGenerator
    private var targetUsername = ""
    private var targetPassword = ""

    init(seed: UInt64) {
        self.random = SeededGenerator(seed: seed)
    }

    /// The chance, from 0 to 1, of the next draw being true.
    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &random) < probability
    }

    /// A pause between two actions.
    mutating func thinkTime() -> Duration {
        .milliseconds(Int.random(in: 80...1_500, using: &random))
    }

    mutating func nextAction(on state: LoginState) -> LoginAction {
        if targetUsername.isEmpty || state.status == .failed || state.isUsernameValid == false {
            pickCredentials()
        }
        if chance(0.02) { return .didTapSignup }
        if let edit = Self.edit(state.username, toward: targetUsername) {
            return .didUpdateUsername(edit)
        }
        if let edit = Self.edit(state.password.value, toward: targetPassword) {
            return .didUpdatePassword(Secret(edit))
        }
        if state.status == .succeeded { targetUsername = "" }
        return .didTapLogin
    }

    mutating func nextAction(on state: PhotosState) -> PhotosAction {
        if state.alert != nil { return .didDismissAlert }
        switch state.status {
        case .idle: return .didAppear
        case .failed, .loading: return .didTapRetry
        case .loaded: break
        }
        if let detail = state.detail {
            return detail.status == .failed && chance(0.7) ? .detail(.didTapRetry) : .detail(.didTapClose)
        }
        if chance(0.03) { return .didPullToRefresh }
        let failed = state.photos.filter { $0.status == .failed }
        if let photo = failed.randomElement(using: &random), chance(0.5) {
            return .thumbnail(id: photo.id, .didTapRetry)
        }
        guard let photo = state.photos.randomElement(using: &random) else { return .didPullToRefresh }
        return .thumbnail(id: photo.id, .didTap)
    }

    mutating func nextAction(on state: AppState) -> AppAction {
        switch state.route {
        case .login: return .login(nextAction(on: state.login))
        case .signup: return .didDismissSignup
        case .photos: return chance(0.01) ? .didTapLogout : .photos(nextAction(on: state.photos))
        }
    }

    /// Mostly a real account, sometimes a wrong password, sometimes fields that fail validation.
    private mutating func pickCredentials() {
        let (username, account) = FakeBackend.accounts.sorted { $0.key < $1.key }.randomElement(using: &random)!
        switch Int.random(in: 0..<20, using: &random) {
        case 0..<15: (targetUsername, targetPassword) = (username, account.password)
        case 15..<18: (targetUsername, targetPassword) = (username, "guess-\(Int.random(in: 100...999, using: &random))")
        default: (targetUsername, targetPassword) = ("x", "123")
        }
    }

    /// The next keystroke that takes `text` toward `target`: delete back to a common prefix,
    /// then type; nil when they match.
    private static func edit(_ text: String, toward target: String) -> String? {
        if text == target { return nil }
        if target.hasPrefix(text) { return String(target.prefix(text.count + 1)) }
        return String(text.dropLast())
    }
}
