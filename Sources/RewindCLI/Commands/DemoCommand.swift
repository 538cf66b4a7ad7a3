import ArgumentParser
import Foundation
import PhotoApp
import RewindCore
import RewindInspector
import RewindLog

/// `rewind demo`: records the photo app's scripted sessions into a log and tours it.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Record the photo app's scripted sessions into a log and print a tour of it.",
        discussion: """
            Plays every scripted session of the login, photo and app flows against a \
            deterministic fake backend, records them into one SQLite log, then reads the log \
            back: its sessions, a short timeline, one diff, and commands to try next. An \
            existing Rewind log at the output path is replaced; any other file is left alone.

            Example: rewind demo --output /tmp/demo.rewind
            """
    )

    @Option(name: .shortAndLong, help: "Where to write the log.")
    var output = "demo.rewind"

    func run() async throws {
        try CommandErrors.reporting { try LogFiles.replaceDemoLog(at: output) }
        try await Self.record(into: output)
        let lines = try CommandErrors.reporting { try DemoTour(path: output, style: Terminal.style).lines() }
        print(lines.joined(separator: "\n"))
    }

    @MainActor
    static func record(into path: String) async throws {
        let sink = try CommandErrors.reporting { try SQLiteSink(path: path) }
        let host = RecordingHost(sink: sink)
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        for session in ScriptedSession.all {
            await session.run(host: host, start: start)
        }
        try CommandErrors.reporting { try sink.close() }
    }
}
