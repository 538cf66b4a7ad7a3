import Foundation

/// A named, scripted session of one of an app's flows: what `record --script NAME` and `demo`
/// play, so that a recording can be made again from the command line whenever the app changes.
///
/// The usual form builds a store for you, its effects run in order by ``Store/settle()``, with
/// the recorder of the session among its middleware:
///
/// ```swift
/// SessionScript("add-and-complete", flow: "todo", summary: "adds two items, completes one",
///               initialState: TodoState(), reducer: { TodoFeature(api: .fake) }) { store in
///     store.send(.addItem(title: "Milk"))
///     await store.settle()
/// }
/// ```
public struct SessionScript: Sendable {
    /// The session's name in the log, like `login-happy`.
    public let name: String
    /// The flow it drives, like `login`; replay looks the reducer up by this name.
    public let flow: String
    /// One line on what the session shows.
    public let summary: String
    private let play: @MainActor @Sendable (any SessionHost, Date) async -> Void

    /// A script that plays itself: it asks `host` for the middleware of its session, drives a
    /// store with it, and tells `host` when the session is over.
    ///
    /// - Parameters:
    ///   - name: the session's name in the log.
    ///   - flow: the flow it drives.
    ///   - summary: one line on what the session shows.
    ///   - play: gets the host and the time the session starts at (a driver with a
    ///     simulated clock starts it there; others may ignore it).
    public init(
        name: String, flow: String, summary: String = "",
        play: @escaping @MainActor @Sendable (_ host: any SessionHost, _ start: Date) async -> Void
    ) {
        self.name = name
        self.flow = flow
        self.summary = summary
        self.play = play
    }

    /// A script that drives a new store of `reducer` from `initialState`, with effects run in
    /// order (``EffectExecution/manual``): call ``Store/settle()`` after each `send` to run them.
    /// Steps are stamped with the system clock, or with `now` when given.
    public init<R: Reducer>(
        _ name: String, flow: String, summary: String = "", schemaVersion: Int = 1,
        initialState: @escaping @autoclosure @Sendable () -> R.State,
        reducer: @escaping @Sendable () -> R,
        now: (@Sendable () -> Date)? = nil,
        script: @escaping @MainActor @Sendable (Store<R.State, R.Action>) async -> Void
    ) where R.State: RecordableState, R.Action: RecordableAction {
        self.init(
            name, flow: flow, summary: summary, schemaVersion: schemaVersion, initialState: initialState, reducer: reducer,
            now: now, script: script
        ) { host, session, _ in host.middleware(for: session, state: R.State.self, action: R.Action.self) }
    }

    /// A script that drives a new store of a `Sendable` reducer: the host's recorder runs the
    /// reducer too, as a store made with
    /// ``Store/init(initialState:reducer:recordingTo:session:configuration:middleware:execution:)``
    /// records. Otherwise as the script of any reducer.
    public init<R: Reducer & Sendable>(
        _ name: String, flow: String, summary: String = "", schemaVersion: Int = 1,
        initialState: @escaping @autoclosure @Sendable () -> R.State,
        reducer: @escaping @Sendable () -> R,
        now: (@Sendable () -> Date)? = nil,
        script: @escaping @MainActor @Sendable (Store<R.State, R.Action>) async -> Void
    ) where R.State: RecordableState, R.Action: RecordableAction {
        self.init(
            name, flow: flow, summary: summary, schemaVersion: schemaVersion, initialState: initialState, reducer: reducer,
            now: now, script: script
        ) { host, session, reducer in
            host.middleware(for: session, reducer: reducer)
        } started: { host, store, session, reducer in
            host.storeDidStart(store, session: session, reducer: reducer)
        }
    }

    private init<R: Reducer>(
        _ name: String, flow: String, summary: String, schemaVersion: Int,
        initialState: @escaping @Sendable () -> R.State,
        reducer: @escaping @Sendable () -> R,
        now: (@Sendable () -> Date)?,
        script: @escaping @MainActor @Sendable (Store<R.State, R.Action>) async -> Void,
        middleware: @escaping @MainActor @Sendable (any SessionHost, SessionDescriptor, R) -> [any StoreMiddleware<R.State, R.Action>],
        started: @escaping @MainActor @Sendable (any SessionHost, Store<R.State, R.Action>, SessionDescriptor, R) -> Void = { _, _, _, _ in }
    ) where R.State: RecordableState, R.Action: RecordableAction {
        self.init(name: name, flow: flow, summary: summary) { host, _ in
            let session = SessionDescriptor(name: name, flow: flow, schemaVersion: schemaVersion, now: now)
            let reducer = reducer()
            let store = Store(
                initialState: initialState(), reducer: reducer, middleware: middleware(host, session, reducer), execution: .manual)
            started(host, store, session, reducer)
            await script(store)
            await store.settle()
            host.sessionDidFinish(session)
        }
    }

    /// Plays the session from its first action to its last, watched by `host`.
    ///
    /// - Parameters:
    ///   - host: gives the session its middleware (a recorder) and hears when it ends.
    ///   - start: the time of step 0, for scripts that keep a simulated clock.
    @MainActor
    public func run(host: some SessionHost, start: Date = Date()) async {
        await play(host, start)
    }
}
