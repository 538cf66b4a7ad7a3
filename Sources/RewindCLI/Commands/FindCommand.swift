import ArgumentParser
import RewindInspector
import RewindLog
import RewindTeamStore

/// `rewind find`: the steps whose state satisfies a predicate.
struct FindCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find",
        abstract: "Find the steps whose state satisfies a predicate.",
        discussion: """
            EXPR compares paths of the state after each step (step 0 included) with literals: \
            == != < <= > >=, contains, and, or, not, parentheses; PATH.count is the size of \
            an array, object or string, and a bare PATH is true when its value exists and is \
            neither null nor false; any(...) and all(...) range over a path with [*], like \
            any(photos[*].status == "failed"). Every session is searched unless --session names one. \
            Exits 0 when a step matched, 1 when none did (see docs/cli/find.md). --follow also \
            reports matches as the newest session (or --session) is recorded, until it ends or \
            Ctrl-C (exit 130).

            Examples:
              rewind find demo.rewind --where 'status == "failed"'
              rewind find demo.rewind --where 'photos.count > 10 and alert != null' --first
              rewind find app.rewind --where 'alert != null' --follow --first
            """
    )

    @Argument(help: "The log to search, or a team store (postgres://user@host:port/database).")
    var log: String

    @Option(name: .customLong("where"), help: "The predicate, like 'status == \"failed\"'.")
    var predicate: String

    @Flag(help: "Stop at the first matching step.")
    var first = false

    @Flag(help: "Go on with steps as they are recorded until the session ends (Ctrl-C stops).")
    var follow = false

    @OptionGroup var session: SessionOption
    @OptionGroup var output: JSONOption

    func validate() throws {
        if follow, SessionStores.isElsewhere(log) {
            throw ValidationError("--follow watches a log on this machine as it is written, not a team store")
        }
    }

    func run() async throws {
        try await SessionStores.reading(log, SessionSelection(session.session.map { .one($0) } ?? .every)) { try run(reading: $0.path) }
    }

    /// The work, on the log at `log` (which may stand for a team store's sessions).
    private func run(reading log: String) throws {
        let predicate: StatePredicate
        do throws(StatePredicateError) {
            predicate = try StatePredicate(parsing: self.predicate)
        } catch {
            throw LogError(.invalidArgument, error.description, underlying: error)
        }
        if follow { return try runFollowing(predicate) }
        let inspector = try LogInspector(path: log)
        let sessions = try session.session.map { [try inspector.session($0)] } ?? inspector.sessions()
        let renderer = MatchRenderer(style: Terminal.style)
        var found = false
        try inspector.find(predicate, in: sessions) { match in
            found = true
            print(output.json ? renderer.json(match) : renderer.text(match))
            return !first
        }
        if !found { throw ExitCode(1) }
    }

    /// `--follow`: without `--session`, the sessions before the one being recorded as they
    /// are, then that one as it is recorded; each match written as soon as it is found.
    private func runFollowing(_ predicate: StatePredicate) throws {
        guard let (inspector, followed, opened) = try Following.open(log, session: session.session) else {
            throw Following.interruptedExit
        }
        var follower = opened
        let earlier = session.session == nil ? try inspector.sessions().filter { $0.number < followed.number } : []
        let renderer = MatchRenderer(style: Terminal.style)
        var found = false
        let report = { (match: StateMatch) -> Bool in
            found = true
            Following.write([output.json ? renderer.json(match) : renderer.text(match)])
            return !first
        }
        try inspector.find(predicate, in: earlier, report)
        if found, first { return }
        if try inspector.followMatches(predicate, in: followed, with: &follower, report) == .interrupted {
            throw Following.interruptedExit
        }
        if !found { throw ExitCode(1) }
    }
}
