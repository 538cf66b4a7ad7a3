import Foundation
import RewindCore
import RewindLog

/// Plays scripted sessions into a log and shows each store live in a `rewind live` inspector,
/// at a human pace: `rewind demo --live URL` (docs/live.md). Each store is connected as an
/// app's would be (`Store(…, live:)`), travel allowed, and stays connected and recording
/// after its script ends, until ``close()``, so that the page can still send it through time.
@MainActor
public final class LiveHost: SessionHost {
    private let sink: SQLiteSink
    private let link: LiveInspectorLink
    private let pace: Duration
    private var recorders: [() -> Void] = []
    /// The stores played, kept alive with their connections until ``close()``.
    private var stores: [AnyObject] = []

    /// - Parameters:
    ///   - sink: the log every session is recorded into.
    ///   - link: the inspector; travel is allowed whatever it says.
    ///   - pace: the time each step waits after it is taken, so that a person sees the steps
    ///     arrive; zero for none.
    public init(sink: SQLiteSink, link: LiveInspectorLink, pace: Duration) {
        self.sink = sink
        var link = link
        link.allowsTravel = true
        self.link = link
        self.pace = pace
    }

    public func middleware<State: RecordableState, Action: RecordableAction>(
        for session: SessionDescriptor, state: State.Type, action: Action.Type
    ) -> [any StoreMiddleware<State, Action>] {
        let recorder = Recorder<State, Action>(sink: sink, session: session, configuration: Self.configuration)
        recorders.append(recorder.close)
        return [recorder, Pacer(pace: pace)]
    }

    public func middleware<R: Reducer & Sendable>(
        for session: SessionDescriptor, reducer: R
    ) -> [any StoreMiddleware<R.State, R.Action>] where R.State: RecordableState, R.Action: RecordableAction {
        let recorder = Recorder<R.State, R.Action>(sink: sink, session: session, replicating: reducer, configuration: Self.configuration)
        recorders.append(recorder.close)
        return [recorder, Pacer(pace: pace)]
    }

    public func storeDidStart<R: Reducer & Sendable>(_ store: Store<R.State, R.Action>, session: SessionDescriptor, reducer: R)
    where R.State: RecordableState, R.Action: RecordableAction {
        let connection = LiveConnection(store: store, reducer: reducer, logPath: sink.path, session: session, link: link)
        store.keep(connection)
        stores.append(store)
        connection.start()
    }

    /// Ends every session: each recorder writes what it holds and closes.
    public func close() {
        for close in recorders { close() }
        recorders = []
        stores = []
    }

    /// Each step reaches the log at once, as a live store's does.
    private static var configuration: RecorderConfiguration {
        var configuration = RecorderConfiguration()
        configuration.writesWhenCaughtUp = true
        return configuration
    }
}

/// Waits `pace` after each step, on the main actor: a scripted session played for a person.
private final class Pacer<State: Sendable, Action: Sendable>: StoreMiddleware {
    let pace: Duration

    init(pace: Duration) {
        self.pace = pace
    }

    func didReduce(_ action: Action, state: State, context: StepContext, outputs: [Action]) {
        guard pace > .zero else { return }
        let (seconds, attoseconds) = pace.components
        Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
    }
}
