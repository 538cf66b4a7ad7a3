import Foundation
import RewindCore
import RewindLog

/// Records a store into a log that keeps only the end of each session, and sends a session to
/// a collector only when something goes wrong (docs/flight-recorder.md).
///
/// ```swift
/// let flight = try FlightRecorder<TodoState, TodoAction>(
///     log: logPath, retention: .lastMinutes(5),
///     session: SessionDescriptor(name: nil, flow: "todo"), replicating: TodoFeature(),
///     triggers: [.action("sync failed") { $0 == .syncFailed }],
///     uploadingTo: CollectorClient(root: collector, token: token))
/// let store = Store(initialState: TodoState(), reducer: TodoFeature(), middleware: flight.middleware)
/// ```
///
/// A session is reported when one of its triggers fires, when the app calls
/// ``report(reason:)``, or, at the next launch, when it was left unfinished (the app crashed
/// or was killed before ``close()``). The report is written into the log with the session
/// (``SessionReport``, kept with its metadata and shown by `rewind sessions` and `show`), and
/// then the session goes to the collector: what the log keeps of it, and at ``close()`` the
/// rest. Until then nothing leaves the device. An upload that fails (offline) is tried again
/// at the next report, at ``close()`` and at the next launch: the log is the buffer.
public final class FlightRecorder<State: Sendable, Action: Sendable>: Sendable {
    /// The recorder, writing into ``log``.
    public let recorder: Recorder<State, Action>
    /// The log's path.
    public let log: String
    /// The identity of the session it records, as every store that gets a copy knows it.
    public let sessionID: UUID
    private let watcher: TriggerWatcher<State, Action>
    private let shipper: FlightShipper

    /// What a store takes to be recorded and watched: the recorder, which runs the triggers
    /// after each step it is handed (``Recorder/afterStep``).
    @MainActor public var middleware: [any StoreMiddleware<State, Action>] { [recorder] }

    /// Records the store into `log` through a recorder whose state is the store's at each step.
    ///
    /// At once, and before the new session begins, the sessions the log holds unfinished are
    /// reported (`the app did not close the session`), and every reported session the
    /// destination lacks is sent.
    // Inlinable, as the recorder's initializers are, so that the recorder's encoder and the
    // triggers' loop (``ReportTrigger/evaluator(_:)``) are compiled in the app's module for its
    // types rather than run as generic code.
    @inlinable
    public convenience init(
        log: String, retention: LogRetention, session: SessionDescriptor, configuration: RecorderConfiguration = .init(),
        triggers: [ReportTrigger<State, Action>] = [], uploadingTo destination: any SessionDestination
    ) throws where State: RecordableState, Action: RecordableAction {
        let sink = try SQLiteSink(path: log, retention: retention)
        try self.init(sink: sink, session: session.id, triggers: ReportTrigger.evaluator(triggers), destination: destination) { afterStep in
            Recorder(sink: sink, session: session, configuration: configuration, afterStep: afterStep)
        }
    }

    /// The same with a replicating recorder (``Recorder/init(sink:session:replicating:configuration:)``):
    /// `reducer` must be the store's.
    @inlinable
    public convenience init<Replica: Reducer & Sendable>(
        log: String, retention: LogRetention, session: SessionDescriptor, replicating reducer: Replica,
        configuration: RecorderConfiguration = .init(), triggers: [ReportTrigger<State, Action>] = [],
        uploadingTo destination: any SessionDestination
    ) throws where State: RecordableState, Action: RecordableAction, Replica.State == State, Replica.Action == Action {
        let sink = try SQLiteSink(path: log, retention: retention)
        try self.init(sink: sink, session: session.id, triggers: ReportTrigger.evaluator(triggers), destination: destination) { afterStep in
            Recorder(sink: sink, session: session, replicating: reducer, configuration: configuration, afterStep: afterStep)
        }
    }

    /// The recorder is made by `makeRecorder`, given the watcher's step handler, but its
    /// session begins only when a store starts it, after the shipper has read which sessions
    /// an earlier run left unfinished.
    @usableFromInline
    init(
        sink: SQLiteSink, session: UUID, triggers: @escaping @Sendable (Action, State, [Action], (String) -> Void) -> Void,
        destination: any SessionDestination, makeRecorder: (@escaping Recorder<State, Action>.AfterStep) -> Recorder<State, Action>
    ) throws {
        let shipper = try FlightShipper(sink: sink, destination: destination, session: session)
        let watcher = TriggerWatcher<State, Action>(evaluate: triggers, shipper: shipper)
        recorder = makeRecorder(watcher.didStep)
        watcher.attach(recorder)
        log = sink.path
        sessionID = session
        self.shipper = shipper
        self.watcher = watcher
    }

    /// Reports the session now, with `reason` (the first report of a session is the one kept;
    /// each later one sends what was recorded since). Returns at once: the report is written
    /// and sent in the background.
    public func report(reason: String) {
        guard recorder.isRecording else { return }
        watcher.report(SessionReport(reason: reason, step: watcher.lastStep.load(ordering: .relaxed)))
    }

    /// Ends the session and, if it was reported, sends the rest of it. Later steps are not
    /// recorded.
    public func close() async {
        let recorder = recorder
        await shipper.close { recorder.close() }
    }

    /// Waits until every report and upload asked for so far is done, and returns the uploads
    /// made since the last call.
    public func settle() async -> [FlightUpload] {
        await shipper.settle()
    }
}
