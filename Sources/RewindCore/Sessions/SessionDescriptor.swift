import Foundation

/// What a recorder needs to know about a session before its first step.
public struct SessionDescriptor: Sendable {
    /// The session's name, like `login-happy`; nil for an unnamed session.
    public var name: String?
    /// The flow whose reducer drives the session, like `login`; replay looks it up by this name.
    public var flow: String
    /// The app's own version of its state and action types, for migrating old recordings.
    public var schemaVersion: Int
    /// The session's identity wherever it is copied: a log, a team store, a collector.
    public var id: UUID
    /// The app, build, device and tags a team finds the session by.
    public var metadata: SessionMetadata
    /// Reads the time stamped on each step.
    public var now: @Sendable () -> Date {
        get { customClock ?? { Date() } }
        set { customClock = newValue }
    }
    /// The clock given instead of the system's, like a simulated one; nil for the system's,
    /// in which case a recorder stamps each step with the processor's counter (`StepClock`).
    @usableFromInline private(set) var customClock: (@Sendable () -> Date)?

    /// Describes a session.
    ///
    /// - Parameters:
    ///   - name: the session's name in the log, like `bug-1234`; nil for none.
    ///   - flow: the flow whose reducer replays it, as registered for replay (`ReplayRegistry`).
    ///   - schemaVersion: the version of the app's state and action types.
    ///   - now: a clock to stamp steps with instead of the system's.
    ///   - id: the session's identity; a new one unless given.
    ///   - metadata: what a team finds it by; what the platform tells (``SessionMetadata/current``)
    ///     unless given. Add tags with `metadata.tags["ticket"] = "ABC-12"`.
    public init(
        name: String?, flow: String, schemaVersion: Int = 1,
        now: (@Sendable () -> Date)? = nil, id: UUID = UUID(), metadata: SessionMetadata = .current
    ) {
        self.name = name
        self.flow = flow
        self.schemaVersion = schemaVersion
        self.customClock = now
        self.id = id
        self.metadata = metadata
    }
}
