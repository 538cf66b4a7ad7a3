import ArgumentParser
import Foundation
import RewindCore
import RewindInspector
import RewindLog
import RewindRendering
import RewindReport

/// `demo`: records every scripted session of the command line's app into a log and tours it.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Record every scripted session into a log and print a tour of it.",
        discussion: """
            Plays every scripted session this command line knows (for the stock rewind, the \
            photo app's login, photo and app flows against a deterministic fake backend), \
            records them into one SQLite log and writes its HTML report beside it (demo.html), \
            then reads the log back: its sessions, a short timeline, one diff, and commands to \
            try next. An existing Rewind log (or report) at the output path is replaced; any \
            other file is left alone.

            Example: rewind demo --output /tmp/demo.rewind
            """
    )

    @Option(name: .shortAndLong, help: "Where to write the log.")
    var output = "demo.rewind"

    func run() async throws {
        let commandLine = CommandContext.current
        guard !commandLine.scripts.isEmpty else {
            throw LogError(.invalidArgument, "\(commandLine.commandName) has no scripted session to play; give RewindCommandLine its scripts")
        }
        try LogFiles.replaceDemoLog(at: output)
        try await Self.record(commandLine.scripts, into: output)
        let report = try Self.writeReport(of: output)
        let tour = try DemoTour(
            path: output, style: Terminal.style, invocation: Terminal.invocation(of: commandLine.commandName),
            featured: commandLine.featuredScript, suggestions: commandLine.tourSuggestions, report: report
        )
        print(try tour.lines().joined(separator: "\n"))
    }

    /// Writes the log's HTML report beside it (`demo.html`) and returns its path; a file of
    /// that name that is not a Rewind report is left alone, and nil returned.
    static func writeReport(of log: String) throws -> String? {
        let path = log.hasSuffix(".rewind") ? String(log.dropLast(".rewind".count)) + ".html" : log + ".html"
        guard LogFiles.isReplaceableReport(at: path) else {
            let line = TerminalText.escaped("\(CommandContext.current.commandName): left \(path) alone: it is not a Rewind report")
            FileHandle.standardError.write(Data((line + "\n").utf8))
            return nil
        }
        try ReportWriter(path: log).write(to: path, session: nil)
        return path
    }

    @MainActor
    static func record(_ scripts: [SessionScript], into path: String) async throws {
        let sink = try SQLiteSink(path: path)
        let host = RecordingHost(sink: sink)
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        for script in scripts {
            await script.run(host: host, start: start)
        }
        try sink.close()
    }
}
