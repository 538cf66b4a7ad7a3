import ArgumentParser
import RewindInspector
import RewindJSON
import RewindLog
import RewindTeamStore

/// `rewind history`: every step that changed the value at one path of a session's state.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show every step that changed the value at a path of the state.",
        discussion: """
            PATH reads like photos[3].title, login.username or ["odd key"].value. An index \
            follows a position; photos[id=4].status follows that element wherever it moves; \
            photos[*].status follows every element, each by its own path. The first \
            line gives the value at step 0, then one line per step that changed it, old → new; \
            a value that appears or disappears reads (absent). With --json, one JSON object per \
            change (see docs/cli/history.md).

            Example: rewind history demo.rewind status --session login-network-error-retry
            """
    )

    @Argument(help: "The log to read, or a team store (postgres://user@host:port/database).")
    var log: String

    @Argument(help: "The path of the value to follow, like photos[3].status.")
    var path: String

    @OptionGroup var session: SessionOption
    @OptionGroup var output: JSONOption

    func run() async throws {
        try await SessionStores.reading(log, SessionSelection(.one(session.session))) { try run(reading: $0.path) }
    }

    /// The work, on the log at `log` (which may stand for a team store's sessions).
    private func run(reading log: String) throws {
        let path: JSONPath
        do throws(JSONPathError) {
            path = try JSONPath(parsing: self.path)
        } catch {
            throw LogError(.invalidArgument, error.description, underlying: error)
        }
        let inspector = try LogInspector(path: log)
        let history = try inspector.history(of: path, in: try inspector.session(session.session))
        let renderer = HistoryRenderer(style: Terminal.style)
        for line in output.json ? renderer.jsonLines(history) : renderer.text(history) { print(line) }
    }
}
