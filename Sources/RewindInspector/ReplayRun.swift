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
    private var actions: [JSONValue]?
    private var initialState = JSONValue.null
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
        actions?.append(action)
        let holdsSecrets = mayHoldSecrets && (Self.holdsRedaction(action) || Self.holdsRedaction(replayed))
        if holdsSecrets { redactedSteps += 1 }
        if !migrates, replayed.digest == digest {
            states?.append(replayed)
            return
        }
        let (before, after) = try recordedStates()
        let expected = migrates ? try migrated(after, isAction: false) : after
        if migrates, replayed == expected {
            states?.append(replayed)
            return
        }
        let from = migrates ? try migrated(before, isAction: false) : before
        do {
            let first = try stepper.probe(from: from, action: action, filler: "•")
            let second = try stepper.probe(from: from, action: action, filler: "•")
            if first != second {
                outcome = .nondeterministic(step: stepNumber, action: actionName, origin: origin, changes: JSONDiff.changes(from: first, to: second))
                return
            }
            if holdsSecrets, try Self.otherFillers.contains(where: { try stepper.probe(from: from, action: action, filler: $0) != first }) {
                unverifiableSteps.append(stepNumber)
                try stepper.reset(to: expected)
                states?.append(expected)
                return
            }
        } catch {
            outcome = .refused(step: stepNumber, reason: "\(error)")
            return
        }
        states?.append(replayed)
        if outcome == nil {
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
            replayedStates: states.map { (initialState, $0) }, migratedActions: actions
        )
    }

    private func migrated(_ value: JSONValue, isAction: Bool) throws -> JSONValue {
        guard migrates else { return value }
        var copy = value
        do {
            try flow.migrate(&copy, isAction: isAction, from: session.schemaVersion)
        } catch {
            throw ReplayError("the migration from schema version \(session.schemaVersion) failed: \(error)")
        }
        return copy
    }

    /// Placeholder fillers of different kinds (letter, capital, digit, punctuation): a step
    /// whose outcome changes with the filler reads more of a secret than its length.
    static let otherFillers: [Character] = ["a", "Z", "7", "_"]

    static func holdsRedaction(_ value: JSONValue) -> Bool {
        switch value {
        case let .object(object):
            if object.count == 1, object[Secret.placeholderKey] != nil { return true }
            return object.contains { holdsRedaction($0.value) }
        case let .array(elements):
            return elements.contains(where: holdsRedaction)
        default:
            return false
        }
    }
}
