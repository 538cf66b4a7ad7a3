import Foundation

/// What a recorder needs to know about a session before its first step.
public struct SessionDescriptor: Sendable {
    /// The session's name, like `login-happy`; nil for an unnamed session.
    public var name: String?
    /// The flow whose reducer drives the session, like `login`; replay looks it up by this name.
    public var flow: String
    /// The app's own version of its state and action types, for migrating old recordings.
    public var schemaVersion: Int
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
    public init(
        name: String?, flow: String, schemaVersion: Int = 1,
        now: (@Sendable () -> Date)? = nil
    ) {
        self.name = name
        self.flow = flow
        self.schemaVersion = schemaVersion
        self.customClock = now
    }
}
