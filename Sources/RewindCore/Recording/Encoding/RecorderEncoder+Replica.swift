import Atomics
import RewindJSON

/// A replicating recorder's encoder: computes each state by running the reducer, and holds
/// the steps back until a state from the store agrees with its own.
///
/// Inlinable, as the rest of the encoder is, so that the app's module compiles each step's
/// work for its own types: as generic code in this module, a replicated login step took 4,100
/// more instructions than one recorded without a replica (22,100 against 18,000; callgrind,
/// `rewind-recording-probe rewind-store` and `rewind`), in metadata lookups and witnesses.
extension RecorderEncoder {
    /// Runs the step's action on the replica's state; encodes the step, held back, or checks
    /// it against the store's state when the step brings one.
    @inlinable
    func replicate(_ step: Step, into output: inout [RecorderWriter.Item]) {
        if let storeState = step.state, unconfirmed.isEmpty, stateRequest.load(ordering: .relaxed) == StateRequest.always {
            // The replica has stopped and has nothing to check: this recorder now records as
            // one without a replica does, keeping the store's state only in case a step
            // queued before the stop follows.
            return record(step, goingOnFrom: storeState, into: &output)
        }
        if let replica, replicaState != nil {
            replica.apply(&replicaState!, step.action)
        }
        if let storeState = step.state {
            confirm(step, storeState: storeState, into: &output)
        } else {
            unconfirmed.append(encode(step, state: replicaState))
        }
    }

    /// The state the replica starts a session from: a copy of the store's that shares none of
    /// its storage, decoded from the session's initial tree, so that the store's first step
    /// changes its arrays in place. Sharing them, the replica (and the memo) kept them alive,
    /// and the first dispatch of every session copied each array it changed on the app's
    /// thread: 1.0 M instructions at 10,000 photos against 760 for each later idle dispatch
    /// (callgrind, `rewind-recording-probe large-idle`).
    ///
    /// The copy is taken only when it equals the store's state by `==` and by the digest of its
    /// encoding; a state that does not come back whole from its encoding (a `Secret`, a
    /// field left out of `CodingKeys`) starts the replica from the store's own state, as
    /// before. The copy is encoded last, so that the memo keeps its arrays, not the store's.
    @inlinable
    func replicaStart(from state: State, header: SessionHeader) -> State {
        guard let copy = try? JSONValueDecoder().decode(State.self, from: header.initialState), copy == state,
            let encoded = try? encodeState(copy), encoded.1 == header.initialDigest
        else { return state }
        return copy
    }

    /// Writes the steps held back as they are: a flush, the session's end or a dropped step
    /// comes before the store's state could confirm them.
    @usableFromInline
    func releaseUnconfirmed(into output: inout [RecorderWriter.Item]) {
        guard !unconfirmed.isEmpty else { return }
        // Swapped into an empty output rather than copied, item by item, and destroyed.
        if output.isEmpty {
            swap(&output, &unconfirmed)
        } else {
            output.append(contentsOf: unconfirmed)
            unconfirmed.removeAll(keepingCapacity: true)
        }
    }

    /// Writes `step` with the store's state, after any steps held back, and takes that state
    /// as the replica's.
    @inlinable
    func record(_ step: Step, goingOnFrom storeState: State, into output: inout [RecorderWriter.Item]) {
        releaseUnconfirmed(into: &output)
        output.append(encode(step, state: storeState))
        replicaState = storeState
    }

    /// Compares the replica's state with the store's at `step`: when they agree, the steps held
    /// back are confirmed; when not, their states are unknown, and the replica stops.
    @inlinable
    func confirm(_ step: Step, storeState: State, into output: inout [RecorderWriter.Item]) {
        guard let computed = replicaState else {
            // Nothing to check: the replica starts (again) from the store's state.
            return record(step, goingOnFrom: storeState, into: &output)
        }
        let stored: (EncodedValue, StateDigest)
        let replicated: StateDigest
        do {
            (stored, replicated) = try encodeForCheck(storeState, replica: computed)
        } catch {
            releaseUnconfirmed(into: &output)
            output.append(gap(at: step, because: error))
            return
        }
        if stored.1 == replicated {
            releaseUnconfirmed(into: &output)
            output.append(encodeChecked(step, stored))
            return
        }
        let lost = unconfirmedSteps
        let error = RecorderError.replicaDisagreed(step: step.step, unconfirmedSteps: lost)
        unconfirmed.removeAll(keepingCapacity: true)
        // The writer never sees the states held back: this one goes whole.
        previousTree = nil
        if let lost { output.append(.gap(RecordingGap(steps: lost, reason: error.description))) }
        output.append(encodeChecked(step, stored))
        // Steps queued before the dispatching thread sees this replicate on from the store's
        // state; the first step that brings one again checks them.
        stateRequest.store(StateRequest.always, ordering: .relaxed)
        replicaState = storeState
        configuration.onError(error)
    }

    /// The store's state encoded, with its digest, and the replica's digest: written as text
    /// while states are (the digests are the trees' own), else as trees, each through a memo of
    /// its own (``checkMemo``), so that each encodes only the elements its side changed since.
    /// When the two agree, the replica's tree stands for the store's: the same tree by its
    /// digest, and the one the memo knows the changes of, which the patch from the last state
    /// is taken from.
    @inlinable
    func encodeForCheck(_ storeState: State, replica computed: State) throws -> ((EncodedValue, StateDigest), StateDigest) {
        if let stateTextType, (try? write(computed, as: stateTextType, digested: true)) != nil {
            let replicated = textWriter.digest
            if (try? write(storeState, as: stateTextType, digested: true)) != nil {
                let written = textWriter.snapshot
                if written.text.count > Self.largeText { self.stateTextType = nil }
                previousTree = nil
                return ((.text(written), written.digest), replicated)
            }
        }
        let replicated = try encodeState(computed)
        // The check's memo keeps copies of the store's arrays, not the arrays themselves, so
        // the store's next mutation of them still happens in place.
        let stored = try stateEncoder.encode(storeState, memo: checkMemo)
        let storedDigest = checkMemo.digest(of: stored)
        if storedDigest == replicated.1 { return ((.tree(replicated.0), replicated.1), replicated.1) }
        return ((.tree(stored), storedDigest), replicated.1)
    }

    /// `step` with `state`, the store's, as `encodeForCheck` encoded it: a tree is handed over
    /// now, after the steps held back were released or dropped.
    @inlinable
    func encodeChecked(_ step: Step, _ state: (EncodedValue, StateDigest)) -> RecorderWriter.Item {
        do {
            guard case let .tree(value) = state.0 else { return .step(try encode(step, encodedState: state.0, digest: state.1)) }
            return .step(try encode(step, encodedState: handOver(value, at: step.step), digest: state.1))
        } catch {
            return gap(at: step, because: error)
        }
    }

    /// The first and last step held back, if any.
    @usableFromInline
    var unconfirmedSteps: ClosedRange<Int>? {
        guard let first = unconfirmed.first, let last = unconfirmed.last else { return nil }
        return Self.steps(of: first).lowerBound...Self.steps(of: last).upperBound
    }

    private static func steps(of item: RecorderWriter.Item) -> ClosedRange<Int> {
        switch item {
        case let .step(step): step.step...step.step
        case let .gap(gap): gap.steps
        case .begin, .flush, .finish: preconditionFailure("only steps and gaps are held back")
        }
    }
}
