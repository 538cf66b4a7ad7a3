import Foundation
import RewindJSON
import RewindLog
import RewindRendering

/// A step of a session of a log, as `rewind diff` names it across logs: `LOG:SESSION:STEP`,
/// or `LOG:STEP` for a log that holds one session.
public struct StepReference: Sendable, Equatable {
    public var log: String
    public var session: String?
    public var step: Int

    public init(log: String, session: String?, step: Int) {
        self.log = log
        self.session = session
        self.step = step
    }

    /// Reads `LOG:SESSION:STEP` or `LOG:STEP`, splitting from the right so that a path may hold
    /// colons.
    public init(parsing text: String) throws(LogError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, let step = Int(parts[parts.count - 1].replacingOccurrences(of: "\u{2212}", with: "-")), !parts[0].isEmpty else {
            throw LogError(.invalidArgument, "\(text): expected LOG:SESSION:STEP or LOG:STEP")
        }
        if parts.count == 2 {
            self.init(log: parts[0], session: nil, step: step)
        } else {
            self.init(log: parts.dropLast(2).joined(separator: ":"), session: parts[parts.count - 2], step: step)
        }
    }

    /// The state at this step, and a label for headers; a negative step counts back from the
    /// session's last (-1 is the last).
    public func resolve() throws(LogError) -> (state: JSONValue, label: String) {
        let inspector = try LogInspector(path: log)
        let summary = try inspector.session(session)
        let step = try inspector.reader.resolveStep(self.step, in: summary)
        return (try inspector.reader.state(of: summary, at: step), "\(log) \(summary.label) step \(step)")
    }
}
