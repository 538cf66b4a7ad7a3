import RewindCore

/// The login screen alone.
public enum LoginFlow: SeedFlow {
    public static let name = "login"
    public static var initialState: LoginState { LoginState() }
    public static func reducer(backend: FakeBackend) -> LoginFeature { LoginFeature(backend: backend) }
}
