import RewindCore
import RewindInspector
import RewindLog
import RewindReplay

/// Refuses, before anything runs, a session whose flow this command line has no reducer for,
/// saying how to get one: replay and rerun need the app's own reducers.
struct FlowRequirement {
    let flows: ReplayRegistry

    /// Throws a `.badRequest` error for the first session of `log` (or the one `session`
    /// names) whose flow is not registered; returns the sessions it checked.
    @discardableResult
    func check(log: String, session: String?, verb: String) throws(LogError) -> [SessionSummary] {
        let inspector = try LogInspector(path: log)
        let sessions: [SessionSummary]
        if let session {
            sessions = [try inspector.session(session)]
        } else {
            sessions = try inspector.sessions()
        }
        for summary in sessions where flows[summary.flow] == nil {
            throw LogError(.invalidArgument, path: log, session: summary.number, message(session: summary, verb: verb))
        }
        return sessions
    }

    /// The sessions `selectors` name (every session of `log` when none), checked as
    /// ``check(log:session:verb:)`` checks one, in the order given.
    func check(log: String, sessions selectors: [String], verb: String) throws(LogError) -> [SessionSummary] {
        guard !selectors.isEmpty else { return try check(log: log, session: nil, verb: verb) }
        var sessions: [SessionSummary] = []
        for selector in selectors {
            sessions += try check(log: log, session: selector, verb: verb)
        }
        return sessions
    }

    /// Why `verb` cannot run `session`, and what to do.
    func message(session: SessionSummary, verb: String) -> String {
        let commandName = CommandContext.current.commandName
        let known = flows.names.isEmpty ? "it knows no flow" : "it knows \(flows.names.joined(separator: ", "))"
        return "session \(session.label) is of flow '\(session.flow)', whose reducer \(commandName) does not have (\(known)); "
            + "\(verb) runs an app's reducers: build your app's own inspector with the RewindCLI library (docs/adoption.md, \"Your own inspector\")"
    }
}
