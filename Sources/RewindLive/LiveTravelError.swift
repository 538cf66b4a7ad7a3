import RewindLog

/// Why a ``LiveCommand`` was not carried out. The app goes on as it was.
public struct LiveTravelError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// The step is not one the session has reached.
        case noSuchStep = "no_such_step"
        /// The app's log could not be read at that step (a step the recorder lost, damage).
        case unreadable
        /// The recorded state does not decode as the app's state type, or a dispatched action
        /// as its action type.
        case undecodable
        /// The app's reducer could not replay the session without the skipped steps.
        case cannotReplay = "cannot_replay"
        /// The store is gone.
        case noStore = "no_store"
    }

    public var kind: Kind
    /// The step asked for; for a dispatch, the step the action would have been.
    public var step: Int
    /// One line for a person.
    public var message: String

    public init(_ kind: Kind, step: Int, _ message: String) {
        self.kind = kind
        self.step = step
        self.message = message
    }

    public var description: String { message }
}
