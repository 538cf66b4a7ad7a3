import ArgumentParser
import RewindInspector
import RewindLog

/// `rewind log`: the timeline of a session.
struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Print the timeline of a session: step, time, origin, action, what changed.",
        discussion: """
            One line per step; `←N` names the step whose effect sent the action, `⇧` an output.

            Example: rewind log demo.rewind --session login-happy --from 15 --action 'didTap*'
            """
    )

    @Argument(help: "The log.")
    var log: String

    @OptionGroup var session: SessionOption

    @Option(help: "The first step to print; negative counts back from the last (-10: the last ten).")
    var from: StepArgument?

    @Option(help: "The last step to print; negative counts back from the last (-1 is the last).")
    var to: StepArgument?

    @Option(help: "Only actions whose name matches this shell pattern, like 'didTap*'.")
    var action: String?

    @OptionGroup var output: JSONOption

    func run() throws {
        let inspector = try LogInspector(path: log)
        let summary = try inspector.session(session.session)
        let from = try self.from.map { step throws(LogError) in try inspector.reader.resolveStep(step.value, in: summary) }
        let to = try self.to.map { step throws(LogError) in try inspector.reader.resolveStep(step.value, in: summary) }
        if let from, let to, to < from {
            throw LogError(
                .invalidArgument, path: log, session: summary.number,
                "--to \(self.to?.value ?? to) is step \(to), before --from \(self.from?.value ?? from) at step \(from)")
        }
        let glob = action.map(ActionGlob.init)
        var renderer = TimelineRenderer(style: Terminal.style)
        // A session with no step yet, or `--to 0`, has no line to print (and 1...0 is no range).
        let first = max(1, from ?? 1), last = to ?? summary.lastStep
        guard first <= last else { return }
        try inspector.pages(of: summary, steps: first...last) { page in
            let entries = page.filter { glob?.matches($0.name) ?? true }
            if output.json {
                for entry in entries { print(JSONForms.entry(entry, session: summary).canonicalString) }
            } else if !entries.isEmpty {
                renderer.fixWidths(for: entries)
                print(renderer.render(entries).joined(separator: "\n"))
            }
        }
    }
}
