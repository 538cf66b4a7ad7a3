import Foundation
import RewindCore
import RewindLog
import RewindUpload

/// How the app records in users' hands: a flight recorder that keeps the end of each session
/// and sends it to the team's collector only when a sync fails, when the user reports a
/// problem (`flight.report(reason:)`), or at the launch after a crash.
public enum TodoFlight {
    /// What the log keeps of a session: its last 2,000 steps (and at most a block more).
    public static let retention = LogRetention.lastSteps(2_000)

    /// When a session is sent: the sync starts to fail.
    public static let triggers: [ReportTrigger<TodoState, TodoAction>] = [
        .state("sync failed") { state in
            if case .failed = state.sync { true } else { false }
        }
    ]

    /// A store recorded into the log at `logPath`, in a session called `name`; sent to the
    /// collector at `collector` with an upload token when a trigger fires. Call the flight
    /// recorder's `close()` when the session ends. (Tests run effects at `settle()`: `.manual`.)
    @MainActor
    public static func make(
        api: TodoAPI, logPath: String, name: String? = nil, retention: LogRetention = retention, collector: URL, token: String,
        execution: EffectExecution = .live
    ) throws -> (store: Store<TodoState, TodoAction>, flight: FlightRecorder<TodoState, TodoAction>) {
        let flight = try FlightRecorder(
            log: logPath, retention: retention,
            session: SessionDescriptor(name: name, flow: TodoFlows.name, schemaVersion: TodoFlows.schemaVersion),
            replicating: TodoFeature(api: api), triggers: triggers,
            uploadingTo: CollectorClient(root: collector, token: token))
        return (Store(initialState: TodoState(), reducer: TodoFeature(api: api), middleware: flight.middleware, execution: execution), flight)
    }
}
