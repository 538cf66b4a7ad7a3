import RewindJSON
import RewindLog

/// The outcome of replaying one recorded session through the current reducer.
public struct SessionReplay: Sendable {
    /// How the replay ended.
    public enum Outcome: Sendable, Equatable {
        /// Every step's state matched the recording.
        case matched
        /// The first step whose replayed state differs from the recorded one, with the changes
        /// from recorded to replayed.
        case diverged(step: Int, action: String, origin: String, changes: [JSONChange])
        /// The first step whose reducer, its state matching, asks for other work than recorded:
        /// it no longer starts a request, sends a follow-up action, or emits an output.
        case behaviourChanged(step: Int, action: String, origin: String, changes: [BehaviourChange])
        /// Runs of the step from the recorded state gave different states (see
        /// `RepeatedRuns`): the reducer reads the clock, a UUID, randomness or unordered
        /// iteration. `changes` go from the first run to the first that differed.
        case nondeterministic(step: Int, action: String, origin: String, changes: [JSONChange])
        /// Every run of the step gave the same state but not the recorded one, and the replayed
        /// state holds the current time at `paths`: the reducer reads a clock whose resolution
        /// is coarser than the runs' spread (whole seconds, say), which more runs cannot tell.
        case readsClock(step: Int, action: String, origin: String, changes: [JSONChange], paths: [JSONPath])
        /// A recorded value could not be decoded by the current types.
        case refused(step: Int, reason: String)
    }

    public let log: String
    public let session: SessionSummary
    public let outcome: Outcome
    /// Steps replayed before the outcome was known.
    public let replayedSteps: Int
    /// Steps whose action or state held redacted secrets, compared as placeholders.
    public let redactedSteps: Int
    /// Steps that read more of a secret than its length, so could not be verified; the replay
    /// took the recorded state and went on.
    public let unverifiableSteps: [Int]
    /// The initial state and the replayed state of every step, when asked for (to update the
    /// recording), in the flow's current schema.
    public let replayedStates: (initial: JSONValue, steps: [JSONValue])?
    /// Every action in the flow's current schema, with the name and origin the current types
    /// give it and the outputs and effects the current reducer asks for, when states were
    /// kept: updating moves the whole session to the new schema and accepts its behaviour.
    package let migratedActions: [RewrittenAction]?
    /// The two states that differ at the failing step: recorded and replayed for a
    /// divergence (or a clock read), the first run and the first that differed for
    /// nondeterminism. For a picture of the failure, such as `replay --report`.
    public var failingStates: (left: JSONValue, right: JSONValue)? = nil
    /// How long the replay took, for reports that time each session (JUnit's `time`).
    public var duration: Duration = .zero
    /// The flow's schema version the recording was migrated to before it replayed, when it was
    /// recorded in an older one (its own is `session.schemaVersion`).
    public var migratedToSchema: Int? = nil

    /// Whether the recording still holds.
    public var passed: Bool { outcome == .matched }
}

extension SessionReplay.Outcome {
    /// Whether the outcome is one that `--update` cannot accept.
    public var isRefusedOrNondeterministic: Bool {
        switch self {
        case .refused, .nondeterministic, .readsClock: true
        case .matched, .diverged, .behaviourChanged: false
        }
    }
}
