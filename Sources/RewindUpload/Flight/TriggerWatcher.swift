import Atomics
import RewindCore

/// The middleware of a ``FlightRecorder``: after each step, the triggers that start to hold
/// report the session. It follows the recorder in the store's middleware, so a step is queued
/// for the log before the report that names it.
///
/// Nonisolated, as the recorder's own hand-off is, and it runs the triggers through a closure
/// compiled for the app's types (``ReportTrigger/evaluator(_:)``): a store dispatched a login
/// step in 810-840 ns with a main-actor watcher looping over its triggers in generic code,
/// 370-440 ns with this, and 160-180 ns with the recorder alone (`rewind bench --only
/// dispatch`). About 160 ns of the difference is the store's path for any middleware but its
/// first recorder.
@usableFromInline
final class TriggerWatcher<State, Action: Sendable>: Sendable {
    /// The last step the store took.
    let lastStep = ManagedAtomic(0)
    private let evaluate: @Sendable (Action, State, [Action], (String) -> Void) -> Void
    private let report: @Sendable (_ reason: String, _ step: Int) -> Void

    init(
        evaluate: @escaping @Sendable (Action, State, [Action], (String) -> Void) -> Void,
        report: @escaping @Sendable (String, Int) -> Void
    ) {
        self.evaluate = evaluate
        self.report = report
    }
}

// In an extension, as the recorder's, so that the protocol's main-actor isolation does not
// spread to the whole class.
extension TriggerWatcher: StoreMiddleware {
    @usableFromInline
    nonisolated func willReduce(_ action: Action, state: State, context: StepContext) {}

    @usableFromInline
    nonisolated func didReduce(_ action: Action, state: State, context: StepContext, outputs: [Action]) {
        lastStep.store(context.step, ordering: .relaxed)
        evaluate(action, state, outputs) { reason in report(reason, context.step) }
    }
}
