import ArgumentParser
import RewindInspector
import RewindLog
import RewindRendering
import RewindTeamStore

/// `rewind diff`: a field-level diff of two states.
struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Diff the states at two steps, field by field, in one log or across two.",
        discussion: """
            `+ path: value` was added, `- path: value` removed, `~ path: old → new` changed, \
            `↕ path: moved [i] → [j]` moved. Arrays whose elements all have a unique `id` are \
            matched by id and their elements named items[id=3]. --path keeps the changes at, \
            inside or around one place, like items[id=3], photos[*].status or login. Exits 0 \
            whether or not the states differ.

            Examples:
              rewind diff demo.rewind 7 8 --session login-invalid-then-fixed
              rewind diff demo.rewind 0 -1 --session photos-happy-browse --path 'photos[*].title'
              rewind diff a.rewind:login-happy:20 b.rewind:login-happy:20
            """
    )

    @Argument(help: "LOG A B, or LOG1:SESSION:STEP LOG2:SESSION:STEP.")
    var arguments: [String]

    @OptionGroup var session: SessionOption

    @Option(name: .shortAndLong, help: "Only the changes at this place, like items[id=3] or photos[*].status.")
    var path: String?

    @OptionGroup var output: JSONOption

    func validate() throws {
        guard arguments.count == 2 || arguments.count == 3 else {
            throw ValidationError("expected LOG A B, or LOG1:SESSION:STEP LOG2:SESSION:STEP")
        }
        if arguments.count == 3 {
            for step in arguments.dropFirst() where ArgumentNormalizer.integer(step) == nil {
                throw ValidationError("'\(step)' is not a step number")
            }
        } else if session.session != nil {
            throw ValidationError("--session goes with LOG A B; across logs, name sessions as LOG:SESSION:STEP")
        }
    }

    func run() async throws {
        var (from, to): (StepReference, StepReference)
        if arguments.count == 3 {
            let log = arguments[0]
            from = StepReference(log: log, session: session.session, step: ArgumentNormalizer.integer(arguments[1]) ?? 0)
            to = StepReference(log: log, session: session.session, step: ArgumentNormalizer.integer(arguments[2]) ?? 0)
        } else {
            (from, to) = (try StepReference(parsing: arguments[0]), try StepReference(parsing: arguments[1]))
        }
        // Each store is read once, for the states asked of it; a store elsewhere copies only
        // the blocks that rebuild them.
        if from.log == to.log {
            let selection = SessionSelection(.these([from.session, to.session]), steps: [from.step, to.step])
            try await SessionStores.reading(from.log, selection) { readable in
                let path = readable.path
                (from.log, to.log) = (path, path)
                try printDiff(from: from, to: to)
            }
        } else {
            try await SessionStores.reading(from.log, SessionSelection(.one(from.session), steps: [from.step])) { readable in
                from.log = readable.path
                try await SessionStores.reading(to.log, SessionSelection(.one(to.session), steps: [to.step])) { readable in
                    to.log = readable.path
                    try printDiff(from: from, to: to)
                }
            }
        }
    }

    private func printDiff(from: StepReference, to: StepReference) throws {
        let path = try self.path.map { text throws(LogError) in try LogInspector.parsePath(text) }
        let diff = try StepDiff(from: from, to: to, path: path)
        print(output.json ? TerminalText.json(diff.json) : diff.lines(style: Terminal.style).joined(separator: "\n"))
    }
}
