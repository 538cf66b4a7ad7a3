import ArgumentParser
import Foundation
import RewindCore
import RewindInspector
import RewindLive
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

    @Option(
        help: ArgumentHelp(
            "Play the sessions into the `rewind live` inspector at this URL, a step at a time, and keep them connected, travel allowed, until Ctrl-C.",
            valueName: "url"))
    var live: String?

    @Option(help: ArgumentHelp("With --live: the pairing code the inspector printed, when it listens beyond loopback.", valueName: "code"))
    var code: String?

    @Option(help: ArgumentHelp("With --live: milliseconds each step waits, so that a person sees them arrive.", valueName: "ms"))
    var paceMs = 300

    func validate() throws {
        guard (0...60_000).contains(paceMs) else { throw ValidationError("--pace-ms must be from 0 to 60000") }
        if let live {
            guard let url = URL(string: live), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw ValidationError("--live takes the inspector's URL, like http://127.0.0.1:7777")
            }
        }
    }

    func run() async throws {
        let commandLine = CommandContext.current
        guard !commandLine.scripts.isEmpty else {
            throw LogError(.invalidArgument, "\(commandLine.commandName) has no scripted session to play; give RewindCommandLine its scripts")
        }
        try LogFiles.replaceDemoLog(at: output)
        if let live, let url = URL(string: live) {
            try await Self.playLive(commandLine.scripts, into: output, link: .inspector(url, pairingCode: code), pace: .milliseconds(paceMs))
            return
        }
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

    /// Plays `scripts` into the log at `path`, each store shown live through `link`; after the
    /// last, keeps them connected until SIGINT or SIGTERM, then ends the sessions.
    @MainActor
    static func playLive(_ scripts: [SessionScript], into path: String, link: LiveInspectorLink, pace: Duration) async throws {
        let sink = try SQLiteSink(path: path)
        let host = LiveHost(sink: sink, link: link, pace: pace)
        let interruption = Interruption()
        Self.say("rewind demo: playing \(scripts.count) sessions into \(link.url.absoluteString); open it in a browser, Ctrl-C ends them")
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        for script in scripts where !interruption.happened {
            await script.run(host: host, start: start)
        }
        if !interruption.happened {
            Self.say("rewind demo: every session played; send them through time from the page, then Ctrl-C")
            await interruption.wait()
        }
        host.close()
        try sink.close()
        Self.say("rewind demo: the sessions are in \(path); try rewind replay \(path)")
    }

    /// A line on standard output at once, unbuffered: a script waits for these.
    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
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
