import RewindCore
import RewindJSON
import RewindLog

/// A ``ReplayStepper`` whose steps run code compiled for the app's types.
///
/// A generic stepper called through `any ReplayStepper` runs the code compiled once in this
/// module for every reducer, which asks the runtime for its types' metadata at each step
/// (about 9 % of replaying a login recording). `ReplayFlow.init`, inlinable, makes this one
/// in the app's module, where the closures below call ``TypedReplayStepper``'s inlinable
/// methods for the app's own reducer, so those are compiled for its types.
///
/// A class, so that its copies share one stepper: unlike ``TypedReplayStepper``'s, a copy is
/// not a fork. Each replay and each chunk makes its own with `ReplayFlow.stepper()`. As a
/// struct of its closures, each call of a non-mutating requirement through `any
/// ReplayStepper` copied it, a retain and a release for each closure: asking every step
/// whether it started work made a replay 5 % slower (hyperfine, 100,000 login steps).
@usableFromInline
final class SpecializedReplayStepper: ReplayStepper {
    @usableFromInline let resetTo: (JSONValue) throws(ReplayError) -> Void
    @usableFromInline let stepWith: (JSONValue) throws(ReplayError) -> JSONValue
    @usableFromInline let digestOf: (JSONValue) -> StateDigest
    @usableFromInline let stepDigestWith: (JSONValue) throws(ReplayError) -> (digest: StateDigest, state: JSONValue?)
    @usableFromInline let holdsPlaceholder: () -> Bool
    @usableFromInline let trialWith: (JSONValue, JSONValue) throws(ReplayError) -> ReplayTrial
    @usableFromInline let describeAction: (JSONValue) throws(ReplayError) -> (name: String, origin: String)
    @usableFromInline let sendsActions: () -> Bool
    @usableFromInline let behaviour: () throws(ReplayError) -> RecordedBehaviour?
    @usableFromInline let behaviourIsWritten: (UnsafeRawBufferPointer?, UnsafeRawBufferPointer?) -> Bool

    @inlinable
    init<R>(_ stepper: TypedReplayStepper<R>) {
        let box = SpecializedReplayStepperBox(stepper)
        resetTo = { value throws(ReplayError) in try box.stepper.reset(to: value) }
        stepWith = { action throws(ReplayError) in try box.stepper.step(action) }
        // The memo, not `box.stepper`: reading the stepper through the box copied it whole.
        let memo = stepper.memo
        digestOf = { memo.digest(of: $0) }
        stepDigestWith = { action throws(ReplayError) in try box.stepper.stepDigest(action) }
        let digester = stepper.digester
        holdsPlaceholder = { digester.holdsPlaceholder() }
        trialWith = { state, action throws(ReplayError) in try box.stepper.trial(from: state, action: action) }
        describeAction = { action throws(ReplayError) in try box.stepper.describe(action) }
        sendsActions = { box.stepper.lastStepSendsActions }
        behaviour = { () throws(ReplayError) in try box.stepper.lastStepBehaviour() }
        behaviourIsWritten = { box.stepper.lastStepBehaviourIsWritten(asOutputs: $0, effects: $1) }
    }

    @usableFromInline
    func reset(to state: JSONValue) throws(ReplayError) { try resetTo(state) }

    @usableFromInline
    func step(_ action: JSONValue) throws(ReplayError) -> JSONValue { try stepWith(action) }

    @usableFromInline
    func digest(ofLastStep state: JSONValue) -> StateDigest { digestOf(state) }

    @usableFromInline
    func stepDigest(_ action: JSONValue) throws(ReplayError) -> (digest: StateDigest, state: JSONValue?) { try stepDigestWith(action) }

    @usableFromInline
    func lastStateHoldsPlaceholder() -> Bool { holdsPlaceholder() }

    @usableFromInline
    func trial(from state: JSONValue, action: JSONValue) throws(ReplayError) -> ReplayTrial { try trialWith(state, action) }

    @usableFromInline
    func describe(_ action: JSONValue) throws(ReplayError) -> (name: String, origin: String) { try describeAction(action) }

    @usableFromInline
    var lastStepSendsActions: Bool { sendsActions() }

    @usableFromInline
    func lastStepBehaviour() throws(ReplayError) -> RecordedBehaviour? { try behaviour() }

    @usableFromInline
    func lastStepBehaviourIsWritten(asOutputs outputs: UnsafeRawBufferPointer?, effects: UnsafeRawBufferPointer?) -> Bool {
        behaviourIsWritten(outputs, effects)
    }
}

/// The one ``TypedReplayStepper`` a ``SpecializedReplayStepper``'s closures share.
///
/// Its accesses keep their exclusivity checks: a stepper serves one chunk on one thread, and
/// turning them off measured no faster (808k–832k against 805k–813k steps/s).
@usableFromInline
final class SpecializedReplayStepperBox<R: Reducer> where R.State: RecordableState, R.Action: RecordableAction {
    @usableFromInline var stepper: TypedReplayStepper<R>

    @inlinable
    init(_ stepper: TypedReplayStepper<R>) {
        self.stepper = stepper
    }
}
