import ArgumentParser
import Foundation
import RewindInspector
import RewindLog
import RewindRendering
import RewindReplay
import RewindTeamStore

/// `rewind minimize`: a short session that still shows a problem, found by delta debugging.
struct MinimizeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "minimize",
        abstract: "Shrink a session to a few steps that still show a divergence or reach a state.",
        discussion: """
            Leaves out the user's actions (each with the effect results it caused) and replays \
            what is left through the current reducer from the recorded initial state, keeping a \
            shorter session whenever it still shows the problem (delta debugging), until no \
            single action can go. --diverging: the current reducer gives another state than the \
            recording from a state the recording passed through, or is nondeterministic. \
            --until EXPR: a state satisfies EXPR, in find's language. --crash: the reducer stops \
            the program (each try runs in a child process). The result is added to OUTPUT as a \
            new session (NAME-minimized) whose states come from the current reducer, except \
            that a step that diverges or is nondeterministic keeps its recorded state and one \
            that crashes the state before it, so replaying it shows the same problem. Exits 1 \
            when the session does not show the problem (see docs/cli/minimize.md).

            Examples:
              rewind minimize big.rewind --diverging --output small.rewind
              rewind minimize demo.rewind -s login-invalid-then-fixed --until 'errorMessage != null' --output small.rewind
              rewind minimize crash.rewind --crash --output small.rewind
            """
    )

    @Argument(help: "The log to read, or a team store (postgres://user@host:port/database).")
    var log: String

    @OptionGroup var session: SessionOption

    @Flag(help: "Keep what still diverges from the recording, or is nondeterministic.")
    var diverging = false

    @Option(help: "Keep what still reaches a state satisfying EXPR (find's language).")
    var until: String?

    @Flag(help: "Keep what still makes the reducer stop the program (a trap); each try runs in a child process.")
    var crash = false

    @Option(name: .shortAndLong, help: "The log to add the shortened session to (created if missing).")
    var output: String?

    /// A file naming the user's steps to keep: the child process of a --crash search replays
    /// them, saying before each step which one it starts.
    @Option(help: .private)
    var attempt: String?

    /// The last step the child needs to read.
    @Option(help: .private)
    var attemptThrough: Int?

    func validate() throws {
        if attempt != nil { return }
        switch [diverging, until != nil, crash].filter({ $0 }).count {
        case 0: throw ValidationError("choose what the shortened session must still show: --diverging, --until EXPR or --crash")
        case 1: break
        default: throw ValidationError("choose one of --diverging, --until and --crash")
        }
        if output == nil { throw ValidationError("missing --output: the log to add the shortened session to") }
    }

    func run() async throws {
        try await SessionStores.reading(log, SessionSelection(.one(session.session))) { try run(reading: $0.path) }
    }

    /// The work, on the log at `log` (which may stand for a team store's sessions).
    private func run(reading log: String) throws {
        if let attempt { return try CrashAttempt.run(log: log, session: session.session, keeping: attempt, through: attemptThrough) }
        guard let output else { return }
        let goal: ShrinkGoal
        if let until {
            let predicate: StatePredicate
            do {
                predicate = try StatePredicate(parsing: until)
            } catch {
                throw LogError(.invalidArgument, "\(error)", underlying: error)
            }
            goal = .reaching(description: until, predicate: { predicate.matches($0) })
        } else {
            goal = .diverging
        }
        try LogFiles.checkNewSession(in: output, readingFrom: log, what: "the shortened session")
        let actions = try RecordedActions(log: log, session: session.session, registry: CommandContext.current.flows)
        let progress = ShrinkProgress(session: actions.session.label)
        let shrunk: ShrunkSession
        do {
            shrunk =
                crash
                ? try CrashSearch(actions: actions).shrink(progress: progress.update)
                : try SessionShrinker(actions, goal: goal).shrink(progress: progress.update)
        } catch {
            progress.finish()
            // Not showing the problem is an answer, like find without a match: exit 1.
            guard error.kind == .notShown else { throw LogError(.invalidArgument, path: log, "\(error)") }
            _ = CommandErrors.fail(error.description, code: 1, commandName: CommandContext.current.commandName)
            throw ExitCode(1)
        }
        progress.finish()
        let number = try shrunk.write(to: output)
        print(shrunk.summary)
        print(TerminalText.escaped("wrote session #\(number) (\(shrunk.sessionName)) to \(output): \(Self.describe(shrunk))"))
    }

    /// What the last kept step shows, in words.
    static func describe(_ shrunk: ShrunkSession) -> String {
        let last = shrunk.steps.count
        switch shrunk.finding {
        case .diverged: return "replay diverges at step \(last)"
        case .behaviourChanged(_, _, let changes):
            return "replay diverges at step \(last), which \(changes.map(\.description).joined(separator: "; "))"
        case .nondeterministic: return "step \(last) is nondeterministic"
        case .reached(let index): return index < 0 ? "the initial state satisfies it" : "step \(last) reaches the state"
        case .crashed(_, let message): return "the reducer stops the program at step \(last) (\(message))"
        }
    }
}
