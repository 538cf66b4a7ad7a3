import RewindCore
import RewindJSON
import RewindLog

/// One session's replay in progress: the stepper, the counts, and the outcome once known.
struct ReplayRun {
    let flow: ReplayFlow
    let session: SessionSummary
    var stepper: any ReplayStepper
    private(set) var outcome: SessionReplay.Outcome?
    private let keepingStates: Bool
    private var replayedSteps = 0
    private var redactedSteps = 0
    private var unverifiableSteps: [Int] = []
    private var states: [JSONValue]?
    private var actions: [RewrittenAction]?
    private var initialState = JSONValue.null
    private var failingStates: (left: JSONValue, right: JSONValue)?
    private let migrates: Bool
    private let mayHoldSecrets: Bool
    /// For a session recorded before format 5: the steps whose replay asked for nothing, a bit
    /// each, against which the recorded actions' causes are checked.
    private var askedNothing: [UInt64] = []
    /// The step the outcome is at, when its action and origin are still to be read from the
    /// log: a step a later cause link showed to have stopped starting work.
    private(set) var unnamedOutcomeStep: Int?

    init(flow: ReplayFlow, session: SessionSummary, keepingStates: Bool) {
        self.flow = flow
        self.session = session
        stepper = flow.stepper(digestRule: session.digestRule)
        self.keepingStates = keepingStates
        states = keepingStates ? [] : nil
        migrates = session.schemaVersion < flow.schemaVersion
        // Kept whenever states are: `--update` stores each step's replayed behaviour too.
        actions = keepingStates ? [] : nil
        mayHoldSecrets = !session.redactedPaths.isEmpty
    }

    mutating func start(from recorded: JSONValue) throws {
        do {
            initialState = try migrated(recorded, isAction: false)
            try stepper.reset(to: initialState)
        } catch let error as ReplayError {
            outcome = .refused(step: 0, reason: "the initial state: \(error)")
        } catch {
            outcome = .refused(step: 0, reason: "the initial state: \(error)")
        }
    }

    /// Goes on from the recorded state after `step`, the first after a gap (a keyframe), without
    /// comparing it: the action before it is not in the log, so nothing could be replayed up to it.
    /// Its action and behaviour are kept, migrated, as every step's are when the recording is
    /// moved to the current schema: one for each state kept.
    mutating func resume(at step: Int, from recorded: JSONValue, action: JSONValue = .null, behaviour: RecordedBehaviour = RecordedBehaviour()) throws {
        do {
            let state = try migrated(recorded, isAction: false)
            if actions != nil {
                let moved = try rewritten(try migrated(action, isAction: true), behaviour: behaviour, isReplayed: false)
                actions?.append(moved)
            }
            try stepper.reset(to: state)
            states?.append(state)
        } catch let error as ReplayError {
            outcome = .refused(step: step, reason: "the recorded state after a gap: \(error)")
        }
    }

    /// Whether the replay has its outcome; when keeping states, a divergence does not stop it.
    var isFinished: Bool {
        switch outcome {
        case nil: false
        case .diverged, .behaviourChanged: !keepingStates
        default: true
        }
    }

    /// Whether the recording is in an older schema than the flow's.
    var isMigrating: Bool { migrates }

    /// Replays one event; on a mismatch, works out whether it is a divergence, nondeterminism,
    /// or a step that read more of a secret than the placeholder keeps. A step whose state
    /// matches but whose reducer asks for other work than `behaviour` says is a divergence of
    /// behaviour.
    mutating func step(
        _ stepNumber: Int, _ actionName: String, _ origin: String, _ recordedAction: JSONValue, _ digest: StateDigest,
        behaviour recorded: RecordedBehaviour,
        recordedStates: () throws -> (before: JSONValue, after: JSONValue)
    ) throws {
        let action: JSONValue
        let replayed: JSONValue
        let behaviour: RecordedBehaviour?
        do {
            action = try migrated(recordedAction, isAction: true)
            replayed = try stepper.step(action)
            behaviour = try stepper.lastStepBehaviour()
        } catch let error as ReplayError {
            outcome = .refused(step: stepNumber, reason: "\(actionName) (\(origin)): \(error)")
            return
        }
        replayedSteps += 1
        if actions != nil {
            do {
                // What the current reducer asks for is what `--update` accepts.
                let moved = try rewritten(action, behaviour: behaviour ?? recorded, isReplayed: behaviour != nil)
                actions?.append(moved)
            } catch let error as ReplayError {
                outcome = .refused(step: stepNumber, reason: "\(actionName) (\(origin)): \(error)")
                return
            }
        }
        let changes = behaviour.map { compare(stepNumber, recorded: recorded, replayed: $0) } ?? []
        let holdsSecrets = mayHoldSecrets && (Self.holdsRedaction(action) || Self.holdsRedaction(replayed))
        if holdsSecrets { redactedSteps += 1 }
        if !migrates, stepper.digest(ofLastStep: replayed) == digest {
            states?.append(replayed)
            noteBehaviour(changes, at: stepNumber, actionName, origin)
            return
        }
        let (before, after) = try recordedStates()
        let expected: JSONValue, from: JSONValue
        do {
            expected = migrates ? try migrated(after, isAction: false) : after
            from = migrates ? try migrated(before, isAction: false) : before
        } catch let error as ReplayError {
            outcome = .refused(step: stepNumber, reason: "the recorded state: \(error)")
            return
        }
        if migrates, replayed == expected {
            states?.append(replayed)
            noteBehaviour(changes, at: stepNumber, actionName, origin)
            return
        }
        do {
            let trialsStart = ClockEvidence.now()
            let readSecret: Bool
            switch try RepeatedRuns.run(stepper, from: from, action: action) {
            case let .differ(one, other):
                failingStates = (one, other)
                outcome = .nondeterministic(step: stepNumber, action: actionName, origin: origin, changes: JSONDiff.changes(from: one, to: other))
                return
            case let .agree(_, read):
                readSecret = read
            }
            let trialTimes = trialsStart...ClockEvidence.now()
            if readSecret {
                // The outcome may hang on characters the log does not keep: carry on from the
                // recorded state rather than call it a divergence or a match.
                unverifiableSteps.append(stepNumber)
                try stepper.reset(to: expected)
                states?.append(expected)
                return
            }
            let changes = JSONDiff.changes(from: expected, to: replayed)
            let clockPaths = ClockEvidence.currentTimePaths(in: changes, during: trialTimes)
            if !clockPaths.isEmpty, outcome == nil {
                failingStates = (expected, replayed)
                outcome = .readsClock(step: stepNumber, action: actionName, origin: origin, changes: changes, paths: clockPaths)
                return
            }
        } catch {
            outcome = .refused(step: stepNumber, reason: "\(error)")
            return
        }
        states?.append(replayed)
        if outcome == nil {
            failingStates = (expected, replayed)
            outcome = .diverged(step: stepNumber, action: actionName, origin: origin, changes: JSONDiff.changes(from: expected, to: replayed))
        }
    }

    /// What the replayed step asks for against what was recorded; for a session recorded
    /// before format 5, also whether the recorded action's cause still starts work.
    private mutating func compare(_ step: Int, recorded: RecordedBehaviour, replayed: RecordedBehaviour) -> [BehaviourChange] {
        guard recorded.effects == nil else { return BehaviourChange.changes(recorded: recorded, replayed: replayed) }
        if let cause = recorded.cause, cause > 0, cause < step, askedNothing(at: cause) {
            noteBehaviour([.noLongerStartsWork(result: step)], at: cause, nil, nil)
        }
        if !BehaviourChange.asksForAnything(replayed) {
            let word = step / 64
            if askedNothing.count <= word { askedNothing.append(contentsOf: repeatElement(0, count: word + 1 - askedNothing.count)) }
            askedNothing[word] |= 1 << UInt64(step % 64)
        }
        return BehaviourChange.changes(recorded: recorded, replayed: replayed)
    }

    private func askedNothing(at step: Int) -> Bool {
        let word = step / 64
        return word < askedNothing.count && askedNothing[word] & (1 << UInt64(step % 64)) != 0
    }

    /// Makes `changes` at `step` the outcome, unless one at an earlier step is known already
    /// (a cause link finds a step's lost work only when its result is replayed). A nil name
    /// is read from the log after the replay (``unnamedOutcomeStep``).
    private mutating func noteBehaviour(_ changes: [BehaviourChange], at step: Int, _ actionName: String?, _ origin: String?) {
        guard !changes.isEmpty else { return }
        switch outcome {
        case nil:
            break
        case let .diverged(earlier, _, _, _), let .behaviourChanged(earlier, _, _, _):
            guard step < earlier else { return }
            failingStates = nil
        default:
            return
        }
        outcome = .behaviourChanged(step: step, action: actionName ?? "", origin: origin ?? "", changes: changes)
        unnamedOutcomeStep = actionName == nil ? step : nil
    }

    /// Names the outcome's step (see ``unnamedOutcomeStep``) by its recorded action and origin.
    mutating func nameOutcome(action: String, origin: String) {
        guard case let .behaviourChanged(step, _, _, changes) = outcome else { return }
        outcome = .behaviourChanged(step: step, action: action, origin: origin, changes: changes)
        unnamedOutcomeStep = nil
    }

    /// Records that all `steps` matched, as checked in chunks by ``ChunkedVerification``.
    mutating func finishMatched(steps: Int, redactedSteps: Int) {
        replayedSteps = steps
        self.redactedSteps = redactedSteps
        outcome = .matched
    }

    func result(log: String) -> SessionReplay {
        SessionReplay(
            log: log, session: session, outcome: outcome ?? .matched, replayedSteps: replayedSteps,
            redactedSteps: redactedSteps, unverifiableSteps: unverifiableSteps,
            replayedStates: states.map { (initialState, $0) }, migratedActions: actions, failingStates: failingStates,
            migratedToSchema: migrates ? flow.schemaVersion : nil
        )
    }

    /// A migrated action with the name and origin the current types give it, and the outputs
    /// and effects of `behaviour`: the replayed step's, in the current schema already, or a
    /// recorded one's (after a gap), migrated too.
    private func rewritten(_ action: JSONValue, behaviour: RecordedBehaviour, isReplayed: Bool) throws -> RewrittenAction {
        let description = try stepper.describe(action)
        var behaviour = behaviour
        if !isReplayed {
            behaviour.outputs = try behaviour.outputs.map { try migrated($0, isAction: true) }
            if let sends = behaviour.effects?.sends, !sends.isEmpty { behaviour.effects?.sends = try sends.map { try migrated($0, isAction: true) } }
        }
        return RewrittenAction(action: action, name: description.name, origin: description.origin, outputs: behaviour.outputs, effects: behaviour.effects)
    }

    private func migrated(_ value: JSONValue, isAction: Bool) throws -> JSONValue {
        guard migrates else { return value }
        var copy = value
        do {
            try flow.migrate(&copy, isAction: isAction, from: session.schemaVersion)
        } catch {
            throw ReplayError(.migrationFailed, "the migration from schema version \(session.schemaVersion) failed: \(error)", underlying: error)
        }
        return copy
    }

    static func holdsRedaction(_ value: JSONValue) -> Bool {
        switch value {
        case let .object(object):
            if object.count == 1, object.keys[0] == Secret.placeholderKey { return true }
            // The values alone: iterating the members retains each key too.
            return object.values.contains(where: holdsRedaction)
        case let .array(elements):
            return elements.contains(where: holdsRedaction)
        default:
            return false
        }
    }
}
