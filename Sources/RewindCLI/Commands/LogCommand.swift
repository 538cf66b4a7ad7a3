import ArgumentParser
import RewindInspector
import RewindLog
import RewindRendering
import RewindTeamStore

/// `rewind log`: the timeline of a session.
struct LogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Print the timeline of a session: step, time, origin, action, what changed.",
        discussion: """
            One line per step; `←N` names the step whose effect sent the action, `⇧` an output. \
            --follow prints each step as it is recorded, like tail -f, until the session ends \
            or Ctrl-C (exit 130); without --session it follows the session being recorded \
            (the newest, or when that has ended, the next one to begin).

            Examples:
              rewind log demo.rewind --session login-happy --from 15 --action 'didTap*'
              rewind log app.rewind --follow --from -5
            """
    )

    @Argument(help: "The log, or a team store (postgres://user@host:port/database).")
    var log: String

    @OptionGroup var session: SessionOption

    @Option(help: "The first step to print; negative counts back from the last (-10: the last ten).")
    var from: StepArgument?

    @Option(help: "The last step to print; negative counts back from the last (-1 is the last).")
    var to: StepArgument?

    @Option(help: "Only actions whose name matches this shell pattern, like 'didTap*'.")
    var action: String?

    @Flag(help: "Print steps as they are recorded until the session ends (Ctrl-C stops).")
    var follow = false

    @OptionGroup var output: JSONOption

    func validate() throws {
        if follow, to != nil {
            throw ValidationError("--follow prints steps until the session ends, so it takes no --to")
        }
        if follow, SessionStores.isElsewhere(log) {
            throw ValidationError("--follow watches a log on this machine as it is written, not a team store")
        }
    }

    func run() async throws {
        if follow { return try runFollowing() }
        try await SessionStores.reading(log, SessionSelection(.one(session.session))) { try list($0.path) }
    }

    /// The timeline of the session chosen in the log at `log`.
    private func list(_ log: String) throws {
        let inspector = try LogInspector(path: log)
        let summary = try inspector.session(session.session)
        let from = try self.from.map { step throws(LogError) in try inspector.reader.resolveStep(step.value, in: summary) }
        let to = try self.to.map { step throws(LogError) in try inspector.reader.resolveStep(step.value, in: summary) }
        if let from, let to, to < from {
            throw LogError(
                .invalidArgument, path: log, session: summary.number,
                "--to \(self.to?.value ?? to) is step \(to), before --from \(self.from?.value ?? from) at step \(from)")
        }
        var printer = PagePrinter(json: output.json, glob: action.map(ActionGlob.init))
        // A session with no step yet, or `--to 0`, has no line to print (and 1...0 is no range).
        let first = max(1, from ?? 1), last = to ?? summary.lastStep
        guard first <= last else { return }
        try inspector.pages(of: summary, steps: first...last) { page in
            let lines = printer.lines(page, of: summary)
            if !lines.isEmpty { print(lines.joined(separator: "\n")) }
        }
    }

    /// `--follow`: the timeline so far, from `--from`, then each step as it is committed.
    private func runFollowing() throws {
        guard let (inspector, summary, opened) = try Following.open(log, session: session.session) else {
            throw Following.interruptedExit
        }
        var follower = opened
        let first = try from.map { step throws(LogError) in try inspector.reader.resolveStep(step.value, in: summary) } ?? 1
        var printer = PagePrinter(json: output.json, glob: action.map(ActionGlob.init))
        let end = try inspector.followTimeline(of: summary, from: first, with: &follower) { page in
            Following.write(printer.lines(page, of: summary))
        }
        if end == .interrupted { throw Following.interruptedExit }
    }
}

/// The lines of a page of the timeline, as text or JSON lines, with `--action`'s filter.
private struct PagePrinter {
    let json: Bool
    let glob: ActionGlob?
    var renderer = TimelineRenderer(style: Terminal.style)

    init(json: Bool, glob: ActionGlob?) {
        self.json = json
        self.glob = glob
    }

    mutating func lines(_ page: [TimelineEntry], of session: SessionSummary) -> [String] {
        let entries = page.filter { glob?.matches($0.name) ?? true }
        if json { return entries.map { TerminalText.json(JSONForms.entry($0, session: session)) } }
        guard !entries.isEmpty else { return [] }
        renderer.fixWidths(for: entries)
        return renderer.render(entries)
    }
}
