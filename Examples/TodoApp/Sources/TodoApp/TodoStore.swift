import RewindCore
import RewindLog

/// How the app makes its store: recorded into a log when it is given one (a debug build, a
/// beta), plain otherwise.
public enum TodoStore {
    /// A store of the todo list; with `logPath`, every step goes to that log, in a session
    /// called `name`. Call the recorder's `close()` when the session ends (`flush()` at
    /// moments that must survive a crash).
    ///
    /// The recorder runs the reducer on its own thread (`replicating:`), so dispatch hands it
    /// the action alone and a long list is mutated in place: the reducer is pure, and the
    /// recorder checks its state against the store's now and then.
    @MainActor
    public static func make(
        api: TodoAPI, logPath: String? = nil, name: String? = nil, configuration: RecorderConfiguration = .init()
    ) throws -> (store: Store<TodoState, TodoAction>, recorder: Recorder<TodoState, TodoAction>?) {
        guard let logPath else {
            return (Store(initialState: TodoState(), reducer: TodoFeature(api: api)), nil)
        }
        let recorder = Recorder(
            sink: try .sqlite(path: logPath),
            session: SessionDescriptor(name: name, flow: TodoFlows.name, schemaVersion: TodoFlows.schemaVersion),
            replicating: TodoFeature(api: api),
            configuration: configuration
        )
        return (Store(initialState: TodoState(), reducer: TodoFeature(api: api), middleware: [recorder]), recorder)
    }
}
