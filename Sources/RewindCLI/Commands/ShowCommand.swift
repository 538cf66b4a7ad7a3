import ArgumentParser
import RewindInspector
import RewindLog
import RewindRendering
import RewindTeamStore

/// `rewind show`: the action and the state at one step.
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show the action at a step and the whole state after it, or one value of it.",
        discussion: """
            Step 0 is the initial state; a negative step counts back from the last (-1 is \
            the last step). Paths read like photos[3].title, photos[id=12].title, or \
            photos[*].title for every place (docs/cli.md#paths). Every row read is checked against \
            its checksum and the state against its digest; damage exits 65 naming the step, \
            and --force shows the step anyway, marked DAMAGED.

            Examples:
              rewind show demo.rewind 8 --session login-invalid-then-fixed
              rewind show demo.rewind 19 --session photos-happy-browse --path 'photos[3]'
            """
    )

    @Argument(help: "The log, or a team store (postgres://user@host:port/database).")
    var log: String

    @Argument(help: "The step: 0 is the initial state, -1 the last step.")
    var step: StepArgument

    @OptionGroup var session: SessionOption

    @Option(name: .shortAndLong, help: "Only the value at this path, like photos[3].title.")
    var path: String?

    @OptionGroup var output: JSONOption

    @Flag(help: "Show a step even when the log is damaged there, marked DAMAGED (still exits 65).")
    var force = false

    func run() async throws {
        // From a store elsewhere, only the blocks that rebuild this step are copied.
        try await SessionStores.reading(log, SessionSelection(.one(session.session), steps: [step.value])) { try show($0.path) }
    }

    private func show(_ log: String) throws {
        do {
            try show(log, verifying: true)
        } catch let damage as LogError where force && damage.kind == .damaged {
            // What the unchecked rows say, under the reason not to trust it.
            let detail = damage.message.hasPrefix("the log is damaged: ") ? String(damage.message.dropFirst("the log is damaged: ".count)) : damage.message
            if !output.json { print(TerminalText.escaped("DAMAGED: \(detail)")) }
            try show(log, verifying: false)
            throw LogError(.damaged, path: damage.path, "shown despite damage (--force): \(damage.message)", underlying: damage)
        }
    }

    private func show(_ log: String, verifying: Bool) throws {
        let inspector = try LogInspector(path: log, verifying: verifying)
        let view = try inspector.show(try inspector.session(session.session), step: step.value, path: path)
        print(output.json ? TerminalText.json(view.json) : view.lines(style: Terminal.style).joined(separator: "\n"))
    }
}
