import RewindCore
import RewindLog

/// How the app makes its store: recorded into a log when it is given one (a debug build, a
/// beta), plain otherwise.
public enum TodoStore {
    /// A store of the todo list; with `logPath`, every step goes to that log, in a session
    /// called `name`. Call `store.recorder?.close()` when the session ends (`flush()` at
    /// moments that must survive a crash).
    ///
    /// The store hands its recorder its own reducer, which the recorder runs on its own thread:
    /// dispatch hands it the action alone and a long list is mutated in place. The reducer is
    /// pure, and the recorder checks its state against the store's now and then.
    @MainActor
    public static func make(
        api: TodoAPI, logPath: String? = nil, name: String? = nil, configuration: RecorderConfiguration = .init()
    ) throws -> Store<TodoState, TodoAction> {
        guard let logPath else {
            return Store(initialState: TodoState(), reducer: TodoFeature(api: api))
        }
        return Store(
            initialState: TodoState(),
            reducer: TodoFeature(api: api),
            recordingTo: try .sqlite(path: logPath),
            session: SessionDescriptor(name: name, flow: TodoFlows.name, schemaVersion: TodoFlows.schemaVersion),
            configuration: configuration
        )
    }
}
