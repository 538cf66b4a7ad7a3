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

    init(flow: ReplayFlow, session: SessionSummary, keepingStates: Bool) {
        self.flow = flow
        self.session = session
        stepper = flow.stepper()
        self.keepingStates = keepingStates
        states = keepingStates ? [] : nil
        migrates = session.schemaVersion < flow.schemaVersion
        actions = keepingStates && migrates ? [] : nil
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
    /// Its action and outputs are kept, migrated, as every step's are when the recording is
    /// moved to the current schema: one for each state kept.
    mutating func resume(at step: Int, from recorded: JSONValue, action: JSONValue = .null, outputs: [JSONValue] = []) throws {
        do {
            let state = try migrated(recorded, isAction: false)
            if actions != nil {
                let moved = try rewritten(try migrated(action, isAction: true), outputs: outputs)
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
        case .diverged: !keepingStates
        default: true
        }
    }

    /// Whether the recording is in an older schema than the flow's.
    var isMigrating: Bool { migrates }

    /// Replays one event; on a mismatch, works out whether it is a divergence, nondeterminism,
    /// or a step that read more of a secret than the placeholder keeps.
    mutating func step(
        _ stepNumber: Int, _ actionName: String, _ origin: String, _ recordedAction: JSONValue, _ digest: StateDigest,
        outputs: [JSONValue] = [],
        recordedStates: () throws -> (before: JSONValue, after: JSONValue)
    ) throws {
        let action: JSONValue
        let replayed: JSONValue
        do {
            action = try migrated(recordedAction, isAction: true)
            replayed = try stepper.step(action)
        } catch let error as ReplayError {
            outcome = .refused(step: stepNumber, reason: "\(actionName) (\(origin)): \(error)")
            return
        }
        replayedSteps += 1
        if actions != nil {
            do {
                let moved = try rewritten(action, outputs: outputs)
                actions?.append(moved)
            } catch let error as ReplayError {
                outcome = .refused(step: stepNumber, reason: "\(actionName) (\(origin)): \(error)")
                return
            }
        }
        let holdsSecrets = mayHoldSecrets && (Self.holdsRedaction(action) || Self.holdsRedaction(replayed))
        if holdsSecrets { redactedSteps += 1 }
        if !migrates, stepper.digest(ofLastStep: replayed) == digest {
            states?.append(replayed)
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

    /// A migrated action with the name and origin the current types give it, and its outputs
    /// migrated too.
    private func rewritten(_ action: JSONValue, outputs: [JSONValue]) throws -> RewrittenAction {
        let description = try stepper.describe(action)
        return RewrittenAction(
            action: action, name: description.name, origin: description.origin,
            outputs: try outputs.map { try migrated($0, isAction: true) }
        )
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
