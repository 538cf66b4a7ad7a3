import RewindCore

/// The whole app: login, then photos.
public enum AppFlow: SeedFlow {
    public static let name = "app"
    public static var initialState: AppState { AppState() }
    public static func reducer(backend: FakeBackend) -> AppFeature { AppFeature(backend: backend) }
}
