import ArgumentParser
import RewindInspector
import RewindLog
import RewindRendering
import RewindTeamStore

/// `rewind check`: the integrity of a log and an audit of its sessions.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a log's integrity: contiguous steps, digests, keyframes, secrets.",
        discussion: """
            Runs SQLite's integrity check on the file, then per session: steps contiguous \
            except where a gap marker says why, gap markers (listed as warnings), every state \
            rebuilt and compared with its digest, a keyframe after each gap, and no clear value \
            in a redacted field. Exits 0 when no check finds a problem (gaps included), 1 \
            otherwise. Never modifies the log (docs/cli/check.md).

            Examples:
              rewind check demo.rewind
              rewind check demo.rewind --session 2 --json
            """
    )

    @Argument(help: "The log to check, or a team store (postgres://user@host:port/database).")
    var log: String

    @Option(name: .shortAndLong, help: "The session, by number, name or UUID; every session when left out.")
    var session: String?
    @OptionGroup var jsonOption: JSONOption

    func run() async throws {
        try await SessionStores.reading(log, SessionSelection(session.map { .one($0) } ?? .every)) { try run(reading: $0.path) }
    }

    /// The work, on the log at `log` (which may stand for a team store's sessions).
    private func run(reading log: String) throws {
        let report = try LogChecker(path: log).check(session)
        if jsonOption.json {
            print(TerminalText.json(report.json))
        } else {
            print(CheckRenderer(style: Terminal.style).render(report).joined(separator: "\n"))
        }
        if !report.passed { throw ExitCode(1) }
    }
}
