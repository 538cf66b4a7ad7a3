import Foundation
import RewindCore
import RewindJSON

/// A session of a log as `rewind sessions` lists it.
///
/// The one shape every store answers a listing with (a log, a team store, a collector):
/// what the session row holds, less its initial state, and what a reader learns of it (the
/// steps held, the last step's time, the row's check, the steps retention let go).
public struct SessionSummary: Sendable, Equatable {
    /// The session's number in its log, from 1.
    public var number: Int
    public var name: String?
    public var flow: String
    public var startedAt: Date
    /// When the last step happened; nil while the session is being recorded or if it never ended.
    public var endedAt: Date?
    public var formatVersion: Int
    public var schemaVersion: Int
    /// How many steps the log holds (gaps excluded).
    public var eventCount: Int
    /// The last recorded step; 0 when only the initial state is recorded.
    public var lastStep: Int
    /// The time of the last recorded step.
    public var lastTime: Date?
    /// Fields whose values were redacted, like `password`.
    public var redactedPaths: [String]
    /// How the session's stored row compared with its checksum.
    public var rowCheck: RowCheck = .verified
    /// The session's identity, the same in every log and store that holds a copy; nil in a log
    /// of format 3 or older that no writer has migrated.
    public var id: UUID? = nil
    /// The app, build, device and tags it was recorded with; nil where `id` is.
    public var metadata: SessionMetadata? = nil
    /// The steps the log's retention removed from the front (``LogRetention``), always from
    /// step 1: "steps 1-48,211 not kept"; nil when the session is whole from its first step.
    public var notKept: ClosedRange<Int>? = nil
    /// Why the summary could not be read whole, when it was listed anyway (`check` lists
    /// every session it can number): the row or its events hold values no recorder writes.
    public var damage: LogError?

    package init(
        number: Int, name: String?, flow: String, startedAt: Date, endedAt: Date?, formatVersion: Int, schemaVersion: Int,
        eventCount: Int, lastStep: Int, lastTime: Date?, redactedPaths: [String], rowCheck: RowCheck = .verified, id: UUID? = nil,
        metadata: SessionMetadata? = nil, notKept: ClosedRange<Int>? = nil, damage: LogError? = nil
    ) {
        self.number = number
        self.name = name
        self.flow = flow
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.formatVersion = formatVersion
        self.schemaVersion = schemaVersion
        self.eventCount = eventCount
        self.lastStep = lastStep
        self.lastTime = lastTime
        self.redactedPaths = redactedPaths
        self.rowCheck = rowCheck
        self.id = id
        self.metadata = metadata
        self.notKept = notKept
        self.damage = damage
    }

    /// Why a flight recorder sent it, if one did (``SessionReport``, kept in its tags).
    public var report: SessionReport? { metadata.flatMap { SessionReport(tags: $0.tags) } }

    /// The first step whose state the log holds after step 0: the first step kept, 1 when
    /// nothing was trimmed. Replay, minimize, find and history start from its state.
    package var firstKeptStep: Int { (notKept?.upperBound ?? 0) + 1 }

    /// The step whose state a replay of the session starts from: 0 (the initial state), or the
    /// first kept step when the front was trimmed, whose keyframe holds the state after it.
    package var firstKeptState: Int { notKept == nil ? 0 : firstKeptStep }

    /// `steps 1-48,211 not kept` (`step 1 not kept`), for every place that shows a trimmed
    /// session; nil when nothing was trimmed.
    package var notKeptText: String? {
        notKept.map { LoggedGap(steps: $0, reason: RecordingGap.notKeptReason).text }
    }

    /// A name for messages: `#2 (login-happy)` or `#2`.
    package var label: String {
        name.map { "#\(number) (\($0))" } ?? "#\(number)"
    }
}

extension SessionSummary {
    /// Whether the session's steps say what each asked for besides its state (log format 5):
    /// a session written before has its steps' effects not recorded.
    package var recordsEffects: Bool { SQLiteSink.recordsEffects(formatVersion: formatVersion) }

    /// How the session's digests take its arrays (log format 6 sums them; older formats chain
    /// them): what a reader checks its states' digests by.
    package var digestRule: StateDigest.Rule { StateDigest.Rule(logFormat: formatVersion) }
}
