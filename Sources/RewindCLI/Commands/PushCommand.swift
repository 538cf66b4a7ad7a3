import ArgumentParser
import Foundation
import RewindInspector
import RewindLog
import RewindRendering
import RewindTeamStore

/// `rewind push`: copies the sessions of logs into a team store.
struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Copy the sessions of logs into a team store on PostgreSQL.",
        discussion: """
            Each session goes in whole or not at all, under its UUID: pushing a log twice adds \
            nothing and says so, a push that was killed is completed by the next, and a session \
            still being recorded is copied as far as its last commit, the rest by a later push. \
            Every block is checked against its checksum first. Needs a rewind built with the \
            TeamStore trait (docs/team-store.md).

            Examples:
              swift run --traits TeamStore rewind push demo.rewind --to postgres://rewind@127.0.0.1:5432/rewind
            """
    )

    @Argument(help: "The logs whose sessions to copy.")
    var logs: [String]

    @Option(help: ArgumentHelp("The team store: postgres://user@host:port/database (libpq's PGPASSWORD, ~/.pgpass, sslmode).", valueName: "url"))
    var to: String

    func validate() throws {
        guard !logs.isEmpty else { throw ValidationError("give at least one log to push") }
    }

    func run() async throws {
        let location = try TeamStoreLocation(to)
        let store = try await TeamStore.open(location)
        var failed = false
        for log in logs {
            do {
                failed = try await push(log, to: store) || failed
            } catch let error as LogError {
                // A log that cannot be read keeps no other log's sessions out.
                failed = true
                report(error)
            }
        }
        await store.close()
        if failed { throw ExitCode(65) }
    }

    private func report(_ error: LogError) {
        _ = CommandErrors.report(error, commandName: CommandContext.current.commandName)
    }

    /// Pushes every session of `log`; true when one of them was refused (damaged, or stored
    /// in rows), after the others went.
    private func push(_ log: String, to store: TeamStore) async throws -> Bool {
        var reader = try LogReader(path: log)
        if reader.formatVersion < SQLiteSink.formatVersion {
            // Sessions of an older log get their identity as a writer migrates it.
            try SQLiteSink(path: log).close()
            reader = try LogReader(path: log)
        }
        var refused = false
        for session in try reader.sessions() {
            let copy: StoredSessionCopy
            do {
                copy = try reader.storedCopy(of: session)
            } catch {
                refused = true
                report(error)
                continue
            }
            let outcome = try await store.push(copy)
            let label = "\(log) \(session.label) \(copy.id.uuidString)"
            switch outcome {
            case .added:
                print(TerminalText.escaped("pushed \(label): \(copy.summary.eventCount) steps"))
            case let .extended(fromStep):
                print(TerminalText.escaped("pushed \(label): steps \(fromStep + 1) to \(copy.summary.lastStep) added"))
            case .alreadyThere:
                print(TerminalText.escaped("already in the store: \(label)"))
            }
        }
        return refused
    }
}
