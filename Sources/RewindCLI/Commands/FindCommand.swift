import ArgumentParser
import RewindInspector
import RewindLog

/// `rewind find`: the steps whose state satisfies a predicate.
struct FindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find",
        abstract: "Find the steps whose state satisfies a predicate.",
        discussion: """
            EXPR compares paths of the state after each step (step 0 included) with literals: \
            == != < <= > >=, contains, and, or, not, parentheses; PATH.count is the size of \
            an array, object or string, and a bare PATH is true when its value exists and is \
            neither null nor false. Every session is searched unless --session names one. \
            Exits 0 when a step matched, 1 when none did (see docs/cli/find.md).

            Examples:
              rewind find demo.rewind --where 'status == "failed"'
              rewind find demo.rewind --where 'photos.count > 10 and alert != null' --first
            """
    )

    @Argument(help: "The log to search.")
    var log: String

    @Option(name: .customLong("where"), help: "The predicate, like 'status == \"failed\"'.")
    var predicate: String

    @Flag(help: "Stop at the first matching step.")
    var first = false

    @OptionGroup var session: SessionOption
    @OptionGroup var output: JSONOption

    func run() throws {
        let predicate: StatePredicate
        do throws(StatePredicateError) {
            predicate = try StatePredicate(parsing: self.predicate)
        } catch {
            throw LogError(.invalidArgument, error.description, underlying: error)
        }
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
}
