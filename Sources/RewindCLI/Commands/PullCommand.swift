import ArgumentParser
import Foundation
import RewindLog
import RewindRendering
import RewindTeamStore

/// `rewind pull`: copies a session of a team store into a log.
struct PullCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Copy a session of a team store into a log.",
        discussion: """
            The session keeps its identity, and its blocks go as stored, each checked against \
            its checksum; pulling it into a log that has it adds nothing and says so. Needs a \
            rewind built with the TeamStore trait (docs/team-store.md).

            Examples:
              swift run --traits TeamStore rewind pull postgres://rewind@127.0.0.1:5432/rewind --session 6F9619FF-8B86-D011-B42D-00C04FC964FF -o bug.rewind
            """
    )

    @Argument(help: ArgumentHelp("The team store: postgres://user@host:port/database.", valueName: "url"))
    var store: String

    @Option(name: .shortAndLong, help: "The session: its number in `rewind sessions URL`, its UUID, or a name no other session of the store has.")
    var session: String

    @Option(name: .shortAndLong, help: "The log to add it to (created if missing).")
    var output: String

    func run() async throws {
        let store = try await TeamStore.open(try TeamStoreLocation(store))
        let copy: StoredSessionCopy
        do {
            copy = try await store.copy(of: session)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
        let sink = try SQLiteSink(path: output)
        let (number, inserted) = try sink.insert(copy)
        try sink.close()
        let name = copy.summary.name ?? "unnamed"
        if inserted {
            print(TerminalText.escaped("pulled \(copy.id.uuidString) (\(name)): \(copy.summary.eventCount) steps into \(output) as #\(number)"))
        } else {
            print(TerminalText.escaped("\(output) holds \(copy.id.uuidString) (\(name)) already as #\(number)"))
        }
    }
}
