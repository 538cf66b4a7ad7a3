import Atomics
import Foundation
import RewindCore

/// A ``FlightRecorder``'s triggers: after each step, the triggers that start to hold report
/// the session. Its recorder calls it after handing the step over (``Recorder/afterStep``), so
/// a step is queued for the log before the report that names it.
///
/// It runs on the dispatching thread, through a closure compiled for the app's types
/// (``ReportTrigger/evaluator(_:)``): a store dispatched a login step in 810-840 ns with a
/// main-actor middleware looping over its triggers in generic code, 370-440 ns with a
/// nonisolated middleware running this closure (2026-11-27), and 200 ns called by the
/// recorder, against 113-115 ns with the recorder alone (`rewind bench --only dispatch`,
/// 2026-11-29).
@usableFromInline
final class TriggerWatcher<State: Sendable, Action: Sendable>: Sendable {
    /// The last step the store took.
    let lastStep = ManagedAtomic(0)
    private let evaluate: @Sendable (Action, State, [Action], (String) -> Void) -> Void
    private let shipper: FlightShipper
    /// The recorder to flush before a report is sent: weakly, as its ``Recorder/afterStep``
    /// holds this watcher. Set once, before the first step.
    private nonisolated(unsafe) weak var recorder: Recorder<State, Action>?
    private let recorderLock = NSLock()

    init(evaluate: @escaping @Sendable (Action, State, [Action], (String) -> Void) -> Void, shipper: FlightShipper) {
        self.evaluate = evaluate
        self.shipper = shipper
    }

    func attach(_ recorder: Recorder<State, Action>) {
        recorderLock.withLock { self.recorder = recorder }
    }

    /// After step `step`: reports the session for each trigger that starts to hold.
    @Sendable
    func didStep(_ action: Action, _ state: State, _ outputs: [Action], _ step: Int) {
        lastStep.store(step, ordering: .relaxed)
        evaluate(action, state, outputs) { reason in report(SessionReport(reason: reason, step: step)) }
    }

    /// Writes `report` into the log and sends the session, in the background, once what was
    /// recorded before it is committed.
    func report(_ report: SessionReport) {
        shipper.report(report) { [weak self] in
            self?.recorderLock.withLock { self?.recorder }?.flush()
        }
    }
}
