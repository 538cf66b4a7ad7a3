import ArgumentParser
import RewindInspector
import RewindRendering

/// `rewind import`: an export read back into a log.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Read an export back into a log, checking every line first.",
        discussion: """
            FILE holds the JSON lines of `rewind export`. Every line is checked before \
            anything is written (fields, increasing steps, each state against its digest, \
            redacted fields); then the sessions are added after those the log holds, the log \
            being created when missing. A file that exists and is not a Rewind log is refused.

            Example: rewind import demo.jsonl --output copy.rewind
            """
    )

    @Argument(help: "The export to read (JSON lines).")
    var file: String

    @Option(name: .shortAndLong, help: "The log to add the sessions to (created if missing).")
    var output: String

    func run() throws {
        let sessions = try LogImporter(path: file).importSessions(into: output)
        for session in sessions {
            let name = session.name ?? "unnamed"
            let gaps = session.gaps == 0 ? "" : session.gaps == 1 ? ", 1 gap" : ", \(session.gaps) gaps"
            if let held = session.alreadyHeldAs {
                print(TerminalText.escaped("skipped \(name) (\(session.flow) flow, line \(session.line)): \(output) holds it already as #\(held)"))
                continue
            }
            print(
                TerminalText.escaped("imported session #\(session.number ?? 0) (\(name), \(session.flow) flow): \(session.steps) steps\(gaps) into \(output)"))
        }
        try LogFiles.warnOfDamage(in: output)
    }
}
