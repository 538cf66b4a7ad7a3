import Atomics
import Foundation
import RewindJSON

/// Records every action and state of a store into a sink, off the dispatch path.
///
/// Add it to a store as middleware, or call ``start(initialState:)`` and
/// ``record(_:state:step:cause:outputs:sends:runs:)`` from code that has no store (a view model
/// that updates its state). Dispatch only hands the action and state to a bounded queue; an
/// encoder thread encodes them canonically, and a writer thread diffs each state against the
/// previous one and writes batches.
///
/// The queued state is kept alive until the encoder has encoded it, so while the encoder is
/// behind, the reducer's next mutation of a large state copies the arrays it changes
/// (copy-on-write) on the dispatching thread. Once it has caught up, the encoder lets go of
/// every state it held, and mutations happen in place again. A recorder made with
/// ``init(sink:session:replicating:configuration:)`` avoids that copy: it runs the reducer on
/// its own thread and takes the store's state only now and then, to confirm the two agree.
///
/// Only the initializer asks for encodable types: the class itself is unconstrained so that a
/// ``Store`` of any state can hold a recorder by its concrete type and hand steps to it through
/// code specialized for the app's types, rather than through the generic middleware witness.
public final class Recorder<State: Sendable, Action: Sendable>: Sendable {
    public typealias Configuration = RecorderConfiguration

    @usableFromInline
    enum Item {
        case start(State, Date)
        case step(Step)
        case gap(ClosedRange<Int>)
        case flush
        case finish
    }

    @usableFromInline
    struct Step {
        @usableFromInline let step: Int
        @usableFromInline let cause: Int?
        /// When the step was dispatched (`StepClock`); a time on the encoder thread.
        @usableFromInline let stamp: UInt64
        @usableFromInline let action: Action
        /// The store's state after the step; nil when the replica computes it.
        @usableFromInline let state: State?
        @usableFromInline let outputs: [Action]
        /// Whether `outputs` has any: asked of the array itself, in the encoder's generic code,
        /// it looked up the array type's metadata at each step.
        @usableFromInline let hasOutputs: Bool
        /// What else the step asked for; nil for a step that asked for no follow-up action and
        /// no work, nearly all of them.
        @usableFromInline let asked: Asked?

        // Inlinable, as the hand-off is, so that the app's module builds steps for its types.
        @inlinable
        init(step: Int, cause: Int?, stamp: UInt64, action: Action, state: State?, outputs: [Action], asked: Asked?) {
            self.step = step
            self.cause = cause
            self.stamp = stamp
            self.action = action
            self.state = state
            self.outputs = outputs
            hasOutputs = !outputs.isEmpty
            self.asked = asked
        }
    }

    /// The follow-up actions a step sent (`.send`, outputs aside) and the work it started
    /// (`.run`, each by its name, nil for work given none); and, for an action a live
    /// inspector dispatched, the origin it is recorded with in place of its own.
    ///
    /// A box, made only for a step that asked for any: every other step's slot holds one empty
    /// word. Two arrays in each slot, retained and released at every step, made a recorded
    /// dispatch 5 ns slower on the login state and 17 ns on the photos state (`rewind bench`),
    /// for what a login tap alone has.
    @usableFromInline
    final class Asked: Sendable {
        @usableFromInline let sends: [Action]
        @usableFromInline let runs: [String?]
        /// The origin recorded in place of the action's own (``DescribedAction/origin``); nil
        /// for every step but those a live inspector dispatched.
        @usableFromInline let origin: String?

        @inlinable
        init(sends: [Action], runs: [String?], origin: String? = nil) {
            self.sends = sends
            self.runs = runs
            self.origin = origin
        }

        /// `asked` with `origin` recorded in place of the action's own.
        @inlinable
        static func relabelling(_ asked: Asked?, origin: String) -> Asked {
            Asked(sends: asked?.sends ?? [], runs: asked?.runs ?? [], origin: origin)
        }

        /// A box for `sends` and `runs`, nil when both are empty.
        @inlinable
        static func boxing(sends: [Action], runs: [String?]) -> Asked? {
            sends.isEmpty && runs.isEmpty ? nil : Asked(sends: sends, runs: runs)
        }
    }

    // The hand-off is inlinable so that the app's module specializes it for its types.
    @usableFromInline let queue: RecordingQueue<Item>
    /// Makes callers other than a store push one at a time (see `record(_:readingState:…)`).
    @usableFromInline let producerLock = UnfairLock()
    @usableFromInline let session: SessionDescriptor
    /// The session's own clock, if it has one; else steps are stamped by `StepClock`, with the
    /// processor's counter when `usesCounter`. Kept apart from `session`, whose strings were
    /// retained and released at every step that read the clock through it.
    @usableFromInline let customClock: (@Sendable () -> Date)?
    @usableFromInline let usesCounter: Bool
    /// Every how many steps a replicating recorder takes the store's state; 0 without a replica.
    @usableFromInline let confirmationInterval: Int
    /// The next multiple of `confirmationInterval` at which it takes it. The producer's alone,
    /// as the queue's producer fields are (one producer at a time), and unchecked as they are:
    /// the runtime's exclusivity check of a class's field cost 76 instructions a recorded step
    /// on the dispatching thread, a third of a plain login dispatch (callgrind).
    @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var nextConfirmedStep = 0
    /// When a replicating recorder wants the store's state besides every `confirmationInterval`
    /// steps: a ``StateRequest``, set by the encoder thread and read at every step.
    @usableFromInline let stateRequest: ManagedAtomic<Int>
    /// Set by the first `close()`.
    private let closed = ManagedAtomic(false)
    /// Whether ``RecorderConfiguration/sampling`` leaves this session out: then nothing is
    /// recorded and no thread runs.
    @usableFromInline let isSampledOut: Bool
    /// What runs on the dispatching thread after each step a store hands over, with the
    /// step's action, the state after it, its outputs and its number: a ``FlightRecorder``'s
    /// triggers. Called by the store beside the hand-off rather than as a middleware of its own,
    /// whose path cost about 160 ns a login step: a flight recorder dispatched at 2.4 times
    /// the same recorder without triggers that way, 1.8 times this way (`ratio_dispatch_flight`,
    /// 2026-11-29).
    @usableFromInline let afterStep: AfterStep?

    /// See ``afterStep``.
    @usableFromInline package typealias AfterStep = @Sendable (_ action: Action, _ state: State, _ outputs: [Action], _ step: Int) -> Void

    /// Whether it records its session: false when sampling left the session out.
    public var isRecording: Bool { !isSampledOut }

    /// Starts the two threads that will record one session into `sink`.
    @inlinable
    public convenience init(sink: some RecordingSink, session: SessionDescriptor, configuration: Configuration = .init())
    where State: RecordableState, Action: RecordableAction {
        self.init(sink: sink, session: session, configuration: configuration, replica: nil)
    }

    /// Starts a recorder that follows the store's state by running `reducer` on the actions
    /// itself, so that dispatch hands it the action alone and the store's next mutation of a
    /// large state happens in place (the other recorder keeps the queued state alive, so the
    /// mutation copies the arrays it changes on the dispatching thread).
    ///
    /// Every ``RecorderConfiguration/keyframeInterval`` steps, after a dropped step, and when
    /// its threads have caught up, the recorder takes the store's state too and checks that
    /// its own agrees; the steps since the last check are written once they are confirmed.
    /// A ``flush()`` or ``close()`` writes them as they are.
    ///
    /// `reducer` must be the store's reducer, and pure: it runs on another thread, beside the
    /// store's. One that is not deterministic is caught at the next check: the steps since the
    /// last agreeing one are marked as a gap in the log, ``RecorderError/replicaDisagreed(step:unconfirmedSteps:)``
    /// goes to ``RecorderConfiguration/onError``, and from then on the recorder takes the
    /// store's state at every step.
    @inlinable
    public convenience init<Replica: Reducer & Sendable>(
        sink: some RecordingSink, session: SessionDescriptor, replicating reducer: Replica, configuration: Configuration = .init()
    ) where State: RecordableState, Action: RecordableAction, Replica.State == State, Replica.Action == Action {
        self.init(sink: sink, session: session, configuration: configuration, replica: ReplicaReducer(reducer))
    }

    /// Makes the encoder here, in the app's module when inlined, so that its work on each step
    /// is compiled for the app's types; the threads run it a batch at a time.
    @inlinable
    convenience init(
        sink: any RecordingSink, session: SessionDescriptor, configuration: Configuration, replica: ReplicaReducer<State, Action>?,
        afterStep: AfterStep? = nil
    ) where State: RecordableState, Action: RecordableAction {
        let stateRequest = ManagedAtomic(StateRequest.atIntervals)
        let encoder = RecorderEncoder<State, Action>(
            session: session, configuration: configuration, replica: replica, stateRequest: stateRequest)
        self.init(
            sink: sink, session: session, configuration: configuration, replicates: replica != nil, stateRequest: stateRequest,
            encode: { batch, output in encoder.encode(&batch, into: &output) }, caughtUp: { output in encoder.caughtUp(into: &output) }, afterStep: afterStep)
    }

    /// A recorder that calls `afterStep` after each step a store hands it (``afterStep``).
    @inlinable
    package convenience init(sink: some RecordingSink, session: SessionDescriptor, configuration: Configuration, afterStep: @escaping AfterStep)
    where State: RecordableState, Action: RecordableAction {
        self.init(sink: sink, session: session, configuration: configuration, replica: nil, afterStep: afterStep)
    }

    /// A replicating recorder that calls `afterStep` after each step a store hands it (``afterStep``).
    @inlinable
    package convenience init<Replica: Reducer & Sendable>(
        sink: some RecordingSink, session: SessionDescriptor, replicating reducer: Replica, configuration: Configuration,
        afterStep: @escaping AfterStep
    ) where State: RecordableState, Action: RecordableAction, Replica.State == State, Replica.Action == Action {
        self.init(sink: sink, session: session, configuration: configuration, replica: ReplicaReducer(reducer), afterStep: afterStep)
    }

    @usableFromInline
    init(
        sink: any RecordingSink, session: SessionDescriptor, configuration: Configuration, replicates: Bool,
        stateRequest: ManagedAtomic<Int>, encode: @escaping @Sendable (inout [Item], inout [RecorderWriter.Item]) -> Bool,
        caughtUp: @escaping @Sendable (inout [RecorderWriter.Item]) -> Void, afterStep: AfterStep? = nil
    ) {
        self.afterStep = afterStep
        self.session = session
        customClock = session.customClock
        usesCounter = StepClock.usesCounter
        self.queue = RecordingQueue(capacity: configuration.capacity, policy: configuration.overflow) { .gap($0) }
        self.confirmationInterval = replicates ? max(1, configuration.keyframeInterval) : 0
        nextConfirmedStep = confirmationInterval
        self.stateRequest = stateRequest
        isSampledOut = !SessionSampling.includes(session.id, fraction: configuration.sampling)
        guard !isSampledOut else { return }
        let queue = self.queue
        // Two threads in a pipeline: one encodes, the other diffs and writes. On a machine
        // with a core to spare this nearly doubles what a recorder sustains.
        let channel = WriterChannel<RecorderWriter.Item>(limit: configuration.capacity)
        let encoding = Thread {
            var batch: [Item] = []
            var encoded: [RecorderWriter.Item] = []
            var finished = false
            queue.ring.mapPages()
            while !finished {
                queue.takeAll(into: &batch)
                // Each item is moved out of the batch as it is encoded, so the states it
                // held are let go of then: once the encoder has caught up, the store's next
                // mutation of a large state happens in place, not on a copy made on the
                // dispatching thread.
                finished = encode(&batch, &encoded)
                if !finished && queue.isDrained {
                    caughtUp(&encoded)
                }
                channel.send(&encoded)
            }
        }
        let writer = RecorderWriter(sink: sink, configuration: configuration)
        let writing = Thread {
            var batches: [[RecorderWriter.Item]] = []
            while true {
                channel.receiveAll(into: &batches)
                if writer.write(batches, completeTicket: queue.completeTicket) == .finished { return }
            }
        }
        encoding.name = "Rewind encoder"
        writing.name = "Rewind writer"
        encoding.start()
        writing.start()
    }

    /// Steps dropped because the recorder's threads fell behind (only under `.dropWithGapMarker`).
    public var droppedCount: Int { queue.dropped }

    /// Records the state a session starts from (step 0). A store calls this for you.
    public func start(initialState: State) {
        guard !isSampledOut else { return }
        _ = queue.pushControl(.start(initialState, session.now()))
    }

    /// Records one step: the action, the state after it, and what the step asked for.
    ///
    /// Steps must come in order, one at a time; any thread may record them. A replicating
    /// recorder keeps `state` only at the steps where it checks its own. A recorder given to a
    /// store records that store's steps, and only those.
    ///
    /// - Parameters:
    ///   - action: the step's action.
    ///   - state: the state after it.
    ///   - step: its number, from 1.
    ///   - cause: the step whose effect sent `action`; nil for a user's action.
    ///   - outputs: the outputs the step emitted for its parent flow.
    ///   - sends: the follow-up actions it sent, outputs aside.
    ///   - runs: the work it started: each one's name (``Effect/run(name:_:)``), nil for work
    ///     given none. Replay says a step "no longer starts" work by this name.
    @inlinable
    public func record(
        _ action: Action, state: State, step: Int, cause: Int? = nil, outputs: [Action] = [], sends: [Action] = [], runs: [String?] = []
    ) {
        producerLock.withLock {
            record(action, readingState: { state }, step: step, cause: cause, outputs: outputs, asked: .boxing(sends: sends, runs: runs))
        }
    }

    /// The hand-off, reading the state only for a step that keeps it; one caller at a time.
    ///
    /// A store, which dispatches on the main actor only, calls it without a lock; every other
    /// caller goes through ``record(_:state:step:cause:outputs:sends:runs:)``, which takes one.
    ///
    /// A store passes a closure that reads its own state: the state is then copied once,
    /// straight into the queue's slot, and not at all for a replicating recorder's steps
    /// between checks. Passed as a value, it was copied to be passed and destroyed after:
    /// a third of the hand-off's instructions on the login state (callgrind).
    @inlinable
    func record(_ action: Action, readingState state: () -> State, step: Int, cause: Int?, outputs: [Action], asked: Asked?) {
        guard !isSampledOut else { return }
        queue.push(step: step) { slot, afterGap in
            let stamp = customClock.map { StepClock.stamp(of: $0()) } ?? StepClock.ticks(counter: usesCounter)
            slot.initialize(
                to: .step(
                    Step(
                        step: step, cause: cause, stamp: stamp, action: action, state: takesState(at: step, afterGap: afterGap) ? state() : nil,
                        outputs: outputs, asked: asked)))
        }
    }

    /// Whether the step's item holds the store's state: always without a replica; with one,
    /// at the checks (see ``init(sink:session:replicating:configuration:)``), from the first
    /// step at or past each multiple of the interval.
    @inlinable
    func takesState(at step: Int, afterGap: Bool) -> Bool {
        confirmationInterval == 0 || replicaTakesState(at: step, afterGap: afterGap)
    }

    /// ``takesState(at:afterGap:)`` for a replicating recorder.
    @inlinable
    func replicaTakesState(at step: Int, afterGap: Bool) -> Bool {
        // A comparison at each step, rather than `step % confirmationInterval`: the division,
        // tens of cycles, happens at the checks only.
        if afterGap || step >= nextConfirmedStep {
            nextConfirmedStep = (step / confirmationInterval + 1) * confirmationInterval
            return true
        }
        switch stateRequest.load(ordering: .relaxed) {
        case StateRequest.atIntervals:
            return false
        case StateRequest.next:
            // A lost race with the encoder stopping the replica leaves `.always` in place.
            _ = stateRequest.compareExchange(expected: StateRequest.next, desired: StateRequest.atIntervals, ordering: .relaxed)
            return true
        default:
            return true
        }
    }

    /// Returns once everything recorded so far is written and committed.
    public func flush() {
        guard !isSampledOut else { return }
        queue.waitUntilDone(queue.pushControl(.flush))
    }

    /// Flushes, ends the session, stops the recorder's threads and lets go of the sink. Later
    /// records are ignored.
    public func close() {
        guard closed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged, !isSampledOut else { return }
        queue.waitUntilDone(queue.pushControl(.finish, closing: true))
    }

    deinit {
        close()
    }
}

// In an extension, so that the protocol's main-actor isolation does not spread to the whole
// class: code without a store records from any thread.
extension Recorder: StoreMiddleware {
    public nonisolated func storeDidStart(initialState: State) {
        start(initialState: initialState)
    }

    @inlinable
    public nonisolated func didReduce(_ action: Action, state: State, context: StepContext, outputs: [Action]) {
        record(action, state: state, step: context.step, cause: context.cause, outputs: outputs)
        afterStep?(action, state, outputs, context.step)
    }

    @inlinable
    public nonisolated func didReduce(_ action: Action, state: State, context: StepContext, asked: EffectSummary<Action>) {
        record(
            action, state: state, step: context.step, cause: context.cause, outputs: asked.outputs, sends: asked.sends, runs: asked.runs)
        afterStep?(action, state, asked.outputs, context.step)
    }
}
