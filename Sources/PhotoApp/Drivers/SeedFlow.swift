import RewindCore

/// One of the photo app's flows, as a recorder and a replayer see it: a name, a reducer and a
/// starting state.
public protocol SeedFlow {
    associatedtype Feature: Reducer
    where Feature.State: RecordableState, Feature.Action: RecordableAction

    /// The name sessions of this flow carry in the log, like `login`.
    static var name: String { get }

    /// The state a session starts from.
    static var initialState: Feature.State { get }

    /// The flow's reducer, whose effects talk to `backend`.
    static func reducer(backend: FakeBackend) -> Feature
}

/// The login screen alone.
public enum LoginFlow: SeedFlow {
    public static let name = "login"
    public static var initialState: LoginState { LoginState() }
    public static func reducer(backend: FakeBackend) -> LoginFeature { LoginFeature(backend: backend) }
}

/// The photo list with its thumbnails and detail screen.
public enum PhotosFlow: SeedFlow {
    public static let name = "photos"
    public static var initialState: PhotosState { PhotosState() }
    public static func reducer(backend: FakeBackend) -> PhotosFeature { PhotosFeature(backend: backend) }
}

/// The whole app: login, then photos.
public enum AppFlow: SeedFlow {
    public static let name = "app"
    public static var initialState: AppState { AppState() }
    public static func reducer(backend: FakeBackend) -> AppFeature { AppFeature(backend: backend) }
}

/// The names of every seed flow, for command lines and error messages.
public let seedFlowNames = [LoginFlow.name, PhotosFlow.name, AppFlow.name]
