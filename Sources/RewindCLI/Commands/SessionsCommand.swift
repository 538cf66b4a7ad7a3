import ArgumentParser
import RewindInspector
import RewindJSON
import RewindRendering

/// `rewind sessions`: the sessions of a log.
struct SessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List the sessions of a log: number, name, flow, steps, start time, duration.",
        discussion: "Example: rewind sessions demo.rewind"
    )

    @Argument(help: "The log.")
    var log: String

    @OptionGroup var output: JSONOption

    func run() throws {
        let sessions = try LogInspector(path: log).sessions()
        if output.json {
            print(TerminalText.json(.array(sessions.map(JSONForms.session))))
        } else {
            print(SessionsRenderer(style: Terminal.style).render(sessions).joined(separator: "\n"))
        }
    }
}
