import Atomics
import Foundation
import RewindJSON

/// The first of a recorder's two threads: encodes each queued step canonically and digests
/// its state, for the writer thread to diff and store.
///
/// With a replica, it also runs the reducer on each action to compute the state the store did
/// not hand over, and holds those steps back until a state from the store confirms them
/// (`RecorderEncoder+Replica.swift`).
///
/// Only the encoder thread touches it, one batch at a time.
final class RecorderEncoder<State: RecordableState, Action: RecordableAction>: @unchecked Sendable {
    typealias Step = Recorder<State, Action>.Step

    private let session: SessionDescriptor
    let configuration: RecorderConfiguration
    private let stateEncoder = JSONTypedEncoder(State.self)
    private let actionEncoder = JSONTypedEncoder(Action.self)
    /// Arrays of the previous state, so that each step encodes only the elements that changed.
    private let memo = JSONEncodingMemo()
    private var actionNames = ActionNames()
    let replica: ReplicaReducer<State, Action>?
    /// Shared with the dispatching thread: see `StateRequest`.
    let stateRequest: ManagedAtomic<Int>
    /// The store's state as the replica computed it up to the last step; nil without a replica,
    /// and while it is unknown (before the session's start, after a dropped step).
    var replicaState: State?
    /// Steps encoded from the replica's state since the last confirmed one, in order.
    var unconfirmed: [RecorderWriter.Item] = []

    init(
        session: SessionDescriptor, configuration: RecorderConfiguration, replica: ReplicaReducer<State, Action>?,
        stateRequest: ManagedAtomic<Int>
    ) {
        self.session = session
        self.configuration = configuration
        self.replica = replica
        self.stateRequest = stateRequest
    }

    /// Encodes `batch` into `output`; true once the batch held the session's end.
    func encode(_ batch: [Recorder<State, Action>.Item], into output: inout [RecorderWriter.Item]) -> Bool {
        for item in batch {
            switch item {
            case let .start(state, time):
                output.append(.begin(header(for: state, at: time)))
                if replica != nil { replicaState = state }
            case let .step(step):
                if replica != nil {
                    replicate(step, into: &output)
                } else {
                    output.append(encode(step, state: step.state))
                }
            case let .gap(steps):
                // The replica missed the dropped actions: the next step brings the store's state.
                releaseUnconfirmed(into: &output)
                replicaState = nil
                output.append(.gap(RecordingGap(steps: steps, reason: "the recorder's queue was full: the writer fell behind")))
            case .flush:
                releaseUnconfirmed(into: &output)
                output.append(.flush)
            case .finish:
                releaseUnconfirmed(into: &output)
                output.append(.finish)
                return true
            }
        }
        return false
    }

    /// Called when nothing waits to be encoded.
    ///
    /// With a replica that has stopped, lets go of it. With a running one, asks for the
    /// store's state with the next step, to confirm the steps held back. (The memo keeps
    /// copies of its own of the last state's arrays, so the store's next mutation of them
    /// happens in place.)
    func caughtUp() {
        guard replica != nil else { return }
        if stateRequest.load(ordering: .relaxed) == StateRequest.always {
            if unconfirmed.isEmpty {
                // A step queued before the stop would find no state to go on from, and be
                // marked as a gap: every step since brings the store's.
                replicaState = nil
            }
        } else if !unconfirmed.isEmpty {
            _ = stateRequest.compareExchange(expected: StateRequest.atIntervals, desired: StateRequest.next, ordering: .relaxed)
        }
    }

    private func header(for state: State, at time: Date) -> SessionHeader? {
        do {
            let value = try stateEncoder.encode(state, memo: memo)
            var paths = Set<String>()
            RedactionScanner.collect(in: value, at: "", into: &paths)
            return SessionHeader(
                name: session.name, flow: session.flow, startedAt: time, schemaVersion: session.schemaVersion,
                initialState: value, initialDigest: memo.digest(of: value), redactedPaths: paths
            )
        } catch {
            configuration.onError(error)
            return nil
        }
    }

    /// The step encoded with `state`, or a gap of that step when it cannot be.
    func encode(_ step: Step, state: State?) -> RecorderWriter.Item {
        guard let state else {
            return .gap(RecordingGap(steps: step.step...step.step, reason: "the recorder had neither the store's state nor its replica's"))
        }
        do {
            let (value, digest) = try encodeState(state)
            return .step(try encode(step, encodedState: value, digest: digest))
        } catch {
            return gap(at: step, because: error)
        }
    }

    /// The canonical tree of `state` and its digest.
    func encodeState(_ state: State) throws -> (JSONValue, StateDigest) {
        let value = try stateEncoder.encode(state, memo: memo)
        return (value, memo.digest(of: value))
    }

    func encode(_ step: Step, encodedState state: JSONValue, digest: StateDigest) throws -> EncodedStep {
        let action = try actionEncoder.encode(step.action)
        return EncodedStep(
            step: step.step, time: step.time, origin: step.action.origin,
            actionName: actionNames.name(of: step.action, encoded: action), action: action, cause: step.cause,
            outputs: try step.outputs.map { try actionEncoder.encode($0) }, digest: digest, state: state
        )
    }

    /// Reports `error` and marks the step as lost.
    func gap(at step: Step, because error: any Error) -> RecorderWriter.Item {
        configuration.onError(error)
        return .gap(RecordingGap(steps: step.step...step.step, reason: "could not encode the step: \(error)"))
    }
}
