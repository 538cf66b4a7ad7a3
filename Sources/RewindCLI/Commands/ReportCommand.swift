import ArgumentParser
import Foundation
import RewindInspector
import RewindLog
import RewindRendering
import RewindReport
import RewindTeamStore

/// `rewind report`: a log as one HTML page to step through in any browser.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a log as one self-contained HTML page: timeline, states, diffs, history.",
        discussion: """
            The page needs nothing but a browser: no network, no other file. It lists the \
            sessions, their timelines with cause links and gaps, the state at the selected step \
            as a tree with the fields it changed marked, the diff against the previous or a \
            pinned step, a field's history and a filter. Step with the slider or the keys (← or k \
            previous, → or j next, Home, End); the URL's fragment keeps the view (#session=2&step=8&pin=5). \
            A report holds at most 100,000 steps: narrow a longer one with --session and \
            --from/--to. See docs/cli/report.md.

            Examples:
              rewind report demo.rewind --output demo.html
              rewind report big.rewind --session 1 --from -5000 --output tail.html
            """
    )

    @Argument(help: "The log, or a team store (postgres://user@host:port/database).")
    var log: String

    @Option(name: .shortAndLong, help: "The session, by number, name or UUID; every session when left out.")
    var session: String?

    @Option(help: "The first step to show, of one session; negative counts back from the last.")
    var from: StepArgument?

    @Option(help: "The last step to show, of one session; negative counts back from the last (-1 is the last).")
    var to: StepArgument?

    @Option(name: .shortAndLong, help: "The HTML file to write (replaced once complete).")
    var output: String

    func run() async throws {
        // A range is of one session: the one named, or the only one.
        let sessions: SessionSelection.Sessions = session.map { .one($0) } ?? (from != nil || to != nil ? .one(nil) : .every)
        try await SessionStores.reading(log, SessionSelection(sessions)) { try run(reading: $0.path) }
    }

    /// The work, on the log at `log` (which may stand for a team store's sessions).
    private func run(reading log: String) throws {
        let writer = try ReportWriter(path: log)
        var selector = session
        var range: ClosedRange<Int>?
        if from != nil || to != nil {
            // A range is of one session: the one named, or the only one.
            let summary = try writer.reader.session(session)
            let first = try from.map { step throws(LogError) in try writer.reader.resolveStep(step.value, in: summary) } ?? 1
            let last = try to.map { step throws(LogError) in try writer.reader.resolveStep(step.value, in: summary) } ?? summary.lastStep
            guard first <= last else {
                throw LogError(.invalidArgument, path: log, session: summary.number, "--to is step \(last), before --from at step \(first)")
            }
            selector = String(summary.number)
            range = first...last
        }
        try writer.write(to: output, session: selector, steps: range)
        let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        print(TerminalText.escaped("wrote \(output) (\(Self.kilobytes(size))): open it in a browser, file://\(URL(fileURLWithPath: output).path)"))
    }

    static func kilobytes(_ bytes: Int) -> String {
        bytes < 1 << 20 ? "\(max(1, bytes >> 10)) KB" : String(format: "%.1f MB", Double(bytes) / Double(1 << 20))
    }
}
