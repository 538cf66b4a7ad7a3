/// Why a session was sent from the device it was recorded on: the reason a flight recorder's
/// trigger gave (`login failed`, `the app did not close the session`), and the last step
/// recorded when it fired.
///
/// Stored with the session's metadata, as two tags a team's store keeps and searches like any
/// other (``tag`` and ``stepTag``), so that it travels with the session to every store that
/// holds a copy, unchanged.
public struct SessionReport: Sendable, Hashable {
    /// The trigger's reason, at most ``maximumReasonBytes`` bytes of UTF-8.
    public var reason: String
    /// The last step recorded when the trigger fired; 0 before the first step.
    public var step: Int

    /// A report; a reason longer than ``maximumReasonBytes`` is cut at a character's end.
    public init(reason: String, step: Int) {
        self.reason = Self.cut(reason)
        self.step = step
    }

    /// The tag holding the reason.
    public static let tag = "rewind.report"
    /// The tag holding the step, in decimal.
    public static let stepTag = "rewind.report.step"
    /// What the reason may hold: within what a collector takes of any metadata value (1,024).
    public static let maximumReasonBytes = 1_000

    /// The report the tags of a session hold, if any.
    public init?(tags: [String: String]) {
        guard let reason = tags[Self.tag] else { return nil }
        self.reason = reason
        step = tags[Self.stepTag].flatMap { Int($0) } ?? 0
    }

    /// The report as tags.
    public var tags: [String: String] { [Self.tag: reason, Self.stepTag: String(step)] }

    /// `at step 1234: login failed`: what `sessions` and `show` print (the reason escaped by
    /// them, as any recorded text).
    public var text: String { "at step \(step): \(reason)" }

    private static func cut(_ reason: String) -> String {
        guard reason.utf8.count > maximumReasonBytes else { return reason }
        var kept = ""
        for character in reason {
            guard kept.utf8.count + character.utf8.count <= maximumReasonBytes else { break }
            kept.append(character)
        }
        return kept
    }
}
