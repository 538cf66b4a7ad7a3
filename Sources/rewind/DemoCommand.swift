import ArgumentParser
import Foundation
import PhotoApp
import RewindInspector

/// `rewind demo`: plays every scripted session of the photo app and prints their timelines.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Play the photo app's scripted sessions and print what each step did.",
        discussion: """
            Plays the login, photo and app sessions against a deterministic fake backend and \
            prints, for each, a timeline: step, time, origin, action and what changed.

            Example: rewind demo
            """
    )

    func run() async throws {
        let lines = await Self.tour(style: Terminal.style)
        print(lines.joined(separator: "\n"))
    }

    @MainActor
    static func tour(style: TextStyle) async -> [String] {
        let collector = TimelineCollector()
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970).rounded(.down))
        for session in ScriptedSession.all {
            await session.run(host: collector, start: start)
        }
        let renderer = TimelineRenderer(style: style)
        var lines: [String] = []
        for (script, session) in zip(ScriptedSession.all, collector.sessions) {
            lines.append(style.heading("\(script.name)") + "  (\(script.flow) flow, \(session.entries.count) steps): \(script.summary)")
            lines += renderer.render(session.entries)
            lines.append("")
        }
        return lines
    }
}
