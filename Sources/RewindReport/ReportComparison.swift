import RewindJSON

/// Two states of one step, side by side in a report: what was recorded and what a replay
/// produced, at the step where they part; or, where only the work the step asks for changed,
/// how it changed.
///
/// `rewind replay --report` makes one per session that failed; the page opens at its step
/// with both states as trees and the fields that differ marked.
public struct ReportComparison: Sendable {
    /// The session's number in its log.
    public var session: Int
    /// The step whose two states differ.
    public var step: Int
    /// What happened, in one line: `diverged at step 8 (login  didTapLogin)`.
    public var headline: String
    /// The first state's title (`recorded`) and the state.
    public var leftTitle: String
    public var left: JSONValue
    /// The second state's title (`replayed`) and the state.
    public var rightTitle: String
    public var right: JSONValue
    /// For a step whose state matches but whose reducer asks for other work: each difference,
    /// `no longer starts "auth.login"`, shown as a list in place of the two states.
    public var behaviour: [String]

    public init(
        session: Int, step: Int, headline: String, leftTitle: String, left: JSONValue, rightTitle: String, right: JSONValue,
        behaviour: [String] = []
    ) {
        self.session = session
        self.step = step
        self.headline = headline
        self.leftTitle = leftTitle
        self.left = left
        self.rightTitle = rightTitle
        self.right = right
        self.behaviour = behaviour
    }
}
