import ArgumentParser
import Foundation
import RewindInspector
import RewindJSON
import RewindLog
import RewindRendering
import RewindTeamStore

/// `rewind sessions`: the sessions of a log.
struct SessionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List the sessions of a log: number, name, flow, steps, start time, duration.",
        discussion: """
            Examples:
              rewind sessions demo.rewind
              rewind sessions team.rewind --flow login --since 2d --tag ticket=ABC-12 --json
            """
    )

    @Argument(help: "The log, or a team store (postgres://user@host:port/database).")
    var log: String

    @Option(help: "Only sessions of this flow.")
    var flow: String?

    @Option(help: ArgumentHelp("Only sessions started since: a duration back from now (2d, 12h, 30m) or a UTC date (2026-11-25).", valueName: "when"))
    var since: String?

    @Option(name: .customLong("app-version"), help: "Only sessions recorded by this version of the app.")
    var appVersion: String?

    @Option(help: "Only sessions recorded there: device, ci or dev (or the app's own word).")
    var origin: String?

    @Option(help: ArgumentHelp("Only sessions with this tag; repeat for several, all of which must match.", valueName: "key=value"))
    var tag: [String] = []

    @Flag(help: "Only sessions a flight recorder reported.")
    var reported = false

    @OptionGroup var output: JSONOption

    func validate() throws {
        _ = try filter(now: Date())
    }

    /// The filters given, read; a value that cannot be read is a usage error (exit 64).
    func filter(now: Date) throws -> SessionFilter {
        var filter = SessionFilter(flow: flow, appVersion: appVersion, origin: origin, reportedOnly: reported)
        do throws(SessionFilter.Invalid) {
            filter.since = try since.map { text throws(SessionFilter.Invalid) in try SessionFilter.since(text, now: now) }
            for text in tag {
                let (key, value) = try SessionFilter.tag(text)
                filter.tags[key] = value
            }
        } catch {
            throw ValidationError(error.description)
        }
        return filter
    }

    func run() async throws {
        let filter = try filter(now: Date())
        let sessions = try await SessionStores.withStore(log) { try await $0.sessions(matching: filter) }
        if output.json {
            print(TerminalText.json(.array(sessions.map(JSONForms.session))))
        } else {
            print(SessionsRenderer(style: Terminal.style).render(sessions).joined(separator: "\n"))
        }
    }
}
