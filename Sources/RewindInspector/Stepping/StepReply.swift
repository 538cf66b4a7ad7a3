/// What a ``StepSession`` answers to a command.
public struct StepReply: Sendable, Equatable {
    /// The view of the new step when the command moved the cursor (even onto the same step).
    public var view: [String]?
    /// What the command printed besides: a message, a state, a diff, the help.
    public var lines: [String]
    /// Whether the session is over.
    public var quits: Bool

    public init(view: [String]? = nil, lines: [String] = [], quits: Bool = false) {
        self.view = view
        self.lines = lines
        self.quits = quits
    }

    /// Everything to print, in order: the view, then the other lines.
    public var output: [String] { (view ?? []) + lines }
}
