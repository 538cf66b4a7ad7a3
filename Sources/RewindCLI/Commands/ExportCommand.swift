import ArgumentParser
import Foundation
import RewindInspector
import RewindLog
import RewindTeamStore

/// `rewind export`: a log as JSON lines, each event with the whole state after it.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a log's sessions as JSON lines, each event with the whole state after it.",
        discussion: """
            One canonical JSON object per line (keys sorted): per session a "session" line, \
            then one "event" line per step with the full state after it, and "gap" lines where \
            the recorder marked missing steps, in step order. Redacted secrets stay \
            placeholders. `rewind import` reads the format back (docs/cli/export.md).

            Examples:
              rewind export demo.rewind --session login-happy
              rewind export demo.rewind --output demo.jsonl
            """
    )

    @Argument(help: "The log to export, or a team store (postgres://user@host:port/database).")
    var log: String

    @Option(name: .shortAndLong, help: "The session, by number, name or UUID; every session when left out.")
    var session: String?

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output (replaced once complete).")
    var output: String?

    func run() async throws {
        try await SessionStores.reading(log, SessionSelection(session.map { .one($0) } ?? .every)) { try run(reading: $0.path) }
    }

    /// The work, on the log at `log` (which may stand for a team store's sessions).
    private func run(reading log: String) throws {
        let exporter = try LogExporter(path: log)
        let sessions = try exporter.sessions(session)
        let writer: LineWriter
        if let output {
            try exporter.checkOutput(output)
            writer = try LineWriter(replacingFileAt: output)
        } else {
            writer = .standardOutput()
        }
        do {
            try exporter.export(sessions, to: writer)
            try writer.finish()
        } catch {
            writer.discard()
            throw error
        }
    }
}
