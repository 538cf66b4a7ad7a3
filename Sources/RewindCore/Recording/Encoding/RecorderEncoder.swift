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
///
/// Inlinable, with the recorder's initializers, so that the app's module compiles the work of
/// each step for its own types: run as generic code, it looked up the metadata of generic
/// types and copied values through their witnesses, a fifth of encoding a login step.
@usableFromInline
final class RecorderEncoder<State: RecordableState, Action: RecordableAction>: @unchecked Sendable {
    @usableFromInline typealias Step = Recorder<State, Action>.Step

    @usableFromInline let session: SessionDescriptor
    @usableFromInline let configuration: RecorderConfiguration
    @usableFromInline let stateEncoder = JSONTypedEncoder(State.self)
    @usableFromInline let actionEncoder = JSONTypedEncoder(Action.self)
    /// Arrays of the previous state, so that each step encodes only the elements that changed,
    /// and hashes them by the rule of the sessions a recorder writes.
    @usableFromInline let memo = JSONEncodingMemo(rule: SessionHeader.digestRule(recordingEffects: true))
    /// The store's states that check a replica's, remembered apart from the replica's own: an
    /// element the reducer rebuilt (a todo's `tags` appended to) is equal in both states but
    /// held in storage of its own in each, so one memo for both found every such element
    /// changed and encoded it again, twice a check. A todo app of 10,000 tagged items, at 1,000
    /// actions a second, took 23 s of CPU in 30 s, 43 % of it encoding states, and its steps
    /// reached the page 23 ms late at the start and 269 ms at the end (perf; the journal of
    /// `docs/performance.md`). The cost: a second copy of the state's arrays and their trees.
    @usableFromInline let checkMemo = JSONEncodingMemo(rule: SessionHeader.digestRule(recordingEffects: true))
    @usableFromInline @exclusivity(unchecked) var actionNames = ActionNames()
    @usableFromInline let replica: ReplicaReducer<State, Action>?
    /// Shared with the dispatching thread: see `StateRequest`.
    @usableFromInline let stateRequest: ManagedAtomic<Int>
    /// The store's state as the replica computed it up to the last step; nil without a replica,
    /// and while it is unknown (before the session's start, after a dropped step).
    ///
    /// Unchecked, as `textWriter` is, for the same reason: their accesses were checked for
    /// exclusivity at run time, 300 of the 19,700 instructions of a replicated login step.
    /// Only the encoder thread touches them, and the reducer a step runs on `replicaState` is
    /// the app's, which cannot reach this object.
    @usableFromInline @exclusivity(unchecked) var replicaState: State?
    /// Steps encoded from the replica's state since the last confirmed one, in order.
    @usableFromInline @exclusivity(unchecked) var unconfirmed: [RecorderWriter.Item] = []
    /// Writes states and actions whose types write their own text (`@RewindCodable`), with
    /// their tapes: no tree is built, hashed or diffed (see ``EncodedValue``).
    ///
    /// Unchecked, as `actionNames` is: their accesses were checked for exclusivity at run time,
    /// a twelfth of encoding a login step (callgrind). Only the encoder thread touches them,
    /// and no method passes one inout to code that could reach this object again.
    @usableFromInline @exclusivity(unchecked) var textWriter = JSONStateWriter(rule: SessionHeader.digestRule(recordingEffects: true))
    /// The state's type while states are written as text: while it writes its own, and the
    /// last state written stayed under ``largeText``; a larger state goes the memo's way, which
    /// encodes only the elements of its arrays that changed. Kept apart from `stateEncoder`,
    /// as `actionTextType` is: handing a `JSONTypedEncoder<State>` to a call looked up its
    /// generic metadata each time, a tenth of encoding a login step.
    @usableFromInline var stateTextType: (any JSONTreeEncodable.Type)?
    /// The action's type when it writes its own text.
    @usableFromInline let actionTextType: (any JSONTreeEncodable.Type)?
    /// The tree of the last state handed to the writer as a tree or a patch, which the next
    /// one's patch is taken from; nil when there is none (a state written as text, a step lost),
    /// and the next state goes whole. Unchecked, as `replicaState` is, for the same reason.
    @usableFromInline @exclusivity(unchecked) var previousTree: JSONValue?
    /// Turns stamps into times; made on the encoder thread.
    @usableFromInline var times: StepTimes?
    /// A state whose text is longer than this is encoded as a tree from then on.
    @inlinable static var largeText: Int { 32_768 }

    @usableFromInline
    init(
        session: SessionDescriptor, configuration: RecorderConfiguration, replica: ReplicaReducer<State, Action>?,
        stateRequest: ManagedAtomic<Int>
    ) {
        self.session = session
        self.configuration = configuration
        self.replica = replica
        self.stateRequest = stateRequest
        stateTextType = stateEncoder.treeType
        actionTextType = actionEncoder.treeType
    }

    /// Encodes `batch` into `output`; true once the batch held the session's end.
    ///
    /// Each item is moved out of the batch, and `.flush` left in its place, which destroys for
    /// nothing: iterating the batch copied each item (its action and state retained) and
    /// destroyed the copy, a tenth of encoding a login step (callgrind). The batch still
    /// frees its buffer, and what the items held, on this thread.
    @inlinable
    func encode(_ batch: inout [Recorder<State, Action>.Item], into output: inout [RecorderWriter.Item]) -> Bool {
        refreshTimes()
        return batch.withUnsafeMutableBufferPointer { items in
            guard let base = items.baseAddress else { return false }
            for index in items.indices {
                let item = (base + index).move()
                (base + index).initialize(to: .flush)
                if encode(item, into: &output) { return true }
            }
            return false
        }
    }

    /// Encodes one item into `output`; true when it is the session's end.
    @inlinable
    func encode(_ item: __owned Recorder<State, Action>.Item, into output: inout [RecorderWriter.Item]) -> Bool {
        switch item {
        case let .start(state, time):
            let header = header(for: state, at: time)
            output.append(.begin(header))
            if replica != nil { replicaState = header.map { replicaStart(from: state, header: $0) } ?? state }
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
            output.append(.gap(RecordingGap(steps: steps, reason: "the recorder's queue was full: its encoder thread fell behind")))
        case .flush:
            releaseUnconfirmed(into: &output)
            output.append(.flush)
        case .finish:
            releaseUnconfirmed(into: &output)
            output.append(.finish)
            return true
        }
        return false
    }

    /// Called when nothing waits to be encoded.
    ///
    /// With a replica that has stopped, lets go of it. With a running one, asks for the
    /// store's state with the next step, to confirm the steps held back, or, when the
    /// configuration ``RecorderConfiguration/writesWhenCaughtUp``, writes them into `output`
    /// as they are, as a flush does. (The memo keeps copies of its own of the last state's
    /// arrays, so the store's next mutation of them happens in place.)
    @usableFromInline
    func caughtUp(into output: inout [RecorderWriter.Item]) {
        guard replica != nil else { return }
        if configuration.writesWhenCaughtUp, stateRequest.load(ordering: .relaxed) != StateRequest.always {
            releaseUnconfirmed(into: &output)
            return
        }
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

    @usableFromInline
    func header(for state: State, at time: Date) -> SessionHeader? {
        do {
            let value = try stateEncoder.encode(state, memo: memo)
            previousTree = value
            var paths = Set<String>()
            RedactionScanner.collect(in: value, at: "", into: &paths)
            return SessionHeader(
                name: session.name, flow: session.flow, startedAt: time, schemaVersion: session.schemaVersion,
                initialState: value, initialDigest: memo.digest(of: value), redactedPaths: paths,
                id: session.id, metadata: session.metadata
            )
        } catch {
            previousTree = nil
            configuration.onError(error)
            return nil
        }
    }

    /// The step encoded with `state`, or a gap of that step when it cannot be.
    @inlinable
    func encode(_ step: Step, state: State?) -> RecorderWriter.Item {
        guard let state else {
            return .gap(RecordingGap(steps: step.step...step.step, reason: "the recorder had neither the store's state nor its replica's"))
        }
        do {
            if let stateTextType, (try? write(state, as: stateTextType, digested: true)) != nil {
                let written = textWriter.snapshot
                if written.text.count > Self.largeText { self.stateTextType = nil }
                previousTree = nil
                return .step(try encode(step, encodedState: .text(written), digest: written.digest))
            }
            let (value, digest) = try encodeState(state)
            return .step(try encode(step, encodedState: handOver(value, at: step.step), digest: digest))
        } catch {
            return gap(at: step, because: error)
        }
    }

    /// Writes `value` into `textWriter`, text and tape, with digests when `digested` (an
    /// action's are never stored: taking them was a sixth of writing a login step). A value its
    /// own writer refuses (a double that is not finite) throws, and is encoded as a tree, whose
    /// error says where.
    @inlinable
    func write<T>(_ value: T, as type: any JSONTreeEncodable.Type, digested: Bool) throws {
        textWriter.reset(takingDigests: digested)
        try type.writeJSON(of: value, to: &textWriter)
    }

    /// `action` encoded, and when `named`, its name: as text when its type writes its own
    /// (without its tape, which only the name needs).
    @inlinable
    func encodeAction(_ action: Action, named: Bool) throws -> (value: EncodedValue, name: String?) {
        if let actionTextType, (try? write(action, as: actionTextType, digested: false)) != nil {
            let name = named ? actionNames.name(of: action, written: textWriter) : nil
            return (.bytes(textWriter.text.withBytes { Array($0) }), name)
        }
        let value = try actionEncoder.encode(action)
        return (.tree(value), named ? actionNames.name(of: action, encoded: value) : nil)
    }

    /// Reads the clocks that turn the batch's stamps into times (made here, on the encoder
    /// thread, the first time: the counter's rate is measured then, once a process).
    @usableFromInline
    func refreshTimes() {
        if times == nil { times = StepTimes(usesCounter: StepClock.usesCounter, isCustom: session.customClock != nil) }
        times?.refresh()
    }

    /// The time of a step stamped `stamp`; `encode(_:into:)` reads the clocks first.
    @usableFromInline
    func time(of stamp: UInt64) -> Date {
        guard let times else { preconditionFailure("a stamp is turned into a time before the clocks were read") }
        return times.date(of: stamp)
    }

    /// The canonical tree of `state` and its digest.
    @usableFromInline
    func encodeState(_ state: State) throws -> (JSONValue, StateDigest) {
        let value = try stateEncoder.encode(state, memo: memo)
        return (value, memo.digest(of: value))
    }

    @inlinable
    func encode(_ step: Step, encodedState state: EncodedValue, digest: StateDigest) throws -> EncodedStep {
        let (action, name) = try encodeAction(step.action, named: true)
        return EncodedStep(
            step: step.step, time: time(of: step.stamp), origin: step.asked?.origin ?? step.action.origin, actionName: name ?? "", action: action,
            cause: step.cause,
            outputs: step.hasOutputs ? try step.outputs.map { try encodeAction($0, named: false).value } : [],
            sends: try step.asked?.sends.map { try encodeAction($0, named: false).value } ?? [], runs: step.asked?.runs ?? [],
            digest: digest, state: state
        )
    }

    /// `value`, the tree of the state of step `step`, as the writer is handed it: its patch from
    /// ``previousTree``, or whole when there is none, and every `keyframeInterval` steps, so
    /// that the writer's tree starts again from the encoder's now and then (which costs a
    /// copy of the state's arrays each time).
    ///
    /// The patch is taken here, where the memo says which elements of its arrays changed, so
    /// that the trees never leave this thread: one handed to the writer kept the memo's arrays
    /// shared until the writer was done with it, and encoding the next state copied them.
    @inlinable
    func handOver(_ value: JSONValue, at step: Int) -> EncodedValue {
        defer { self.previousTree = value }
        guard let previousTree, step % max(1, configuration.keyframeInterval) != 0 else { return .tree(value) }
        return .patch(JSONPatch.between(previousTree, value, changesFrom: memo))
    }

    /// Reports `error` and marks the step as lost.
    @usableFromInline
    func gap(at step: Step, because error: any Error) -> RecorderWriter.Item {
        // The writer's tree misses this step's state: the next one goes whole.
        previousTree = nil
        configuration.onError(error)
        return .gap(RecordingGap(steps: step.step...step.step, reason: "could not encode the step: \(error)"))
    }
}
