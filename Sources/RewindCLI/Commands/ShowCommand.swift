import ArgumentParser
import RewindInspector

/// `rewind show`: the action and the state at one step.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show the action at a step and the whole state after it, or one value of it.",
        discussion: """
            Step 0 is the initial state; a negative step counts back from the last (-1 is \
            the last step). Paths read like photos[3].title.

            Examples:
              rewind show demo.rewind 8 --session login-invalid-then-fixed
              rewind show demo.rewind 19 --session photos-happy-browse --path 'photos[3]'
            """
    )

    @Argument(help: "The log.")
    var log: String

    @Argument(help: "The step: 0 is the initial state, -1 the last step.")
    var step: StepArgument

    @OptionGroup var session: SessionOption

    @Option(name: .shortAndLong, help: "Only the value at this path, like photos[3].title.")
    var path: String?

    @OptionGroup var output: JSONOption

    func run() throws {
        let inspector = try LogInspector(path: log)
        let view = try inspector.show(try inspector.session(session.session), step: step.value, path: path)
        print(output.json ? view.json.canonicalString : view.lines(style: Terminal.style).joined(separator: "\n"))
    }
}
