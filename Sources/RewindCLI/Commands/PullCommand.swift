import ArgumentParser
import Foundation
import RewindInspector
import RewindLog
import RewindRendering
import RewindTeamStore
import RewindUpload

/// `rewind pull`: copies a session of a team store, or one a collector shares, into a log.
struct PullCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Copy a session of a team store, or one a collector shares, into a log.",
        discussion: """
            The session keeps its identity, and its blocks go as stored, each checked against \
            its checksum. Into a log that holds it, a pull adds the steps the log lacks (a \
            session pulled while it was recorded grows); one that holds as many or more changes \
            nothing and says so, and steps that disagree with the log's are refused. Needs a \
            rewind built with the Servers trait to pull from PostgreSQL (docs/team-store.md); a \
            collector's session needs a read token (docs/collector.md).

            Examples:
              swift run --traits Servers rewind pull postgres://rewind@127.0.0.1:5432/rewind --session 6F9619FF-8B86-D011-B42D-00C04FC964FF -o bug.rewind
              rewind pull https://rewind.example.com/sessions/6F9619FF-8B86-D011-B42D-00C04FC964FF --token "$READ_TOKEN" -o bug.rewind
            """
    )

    @Argument(
        help: ArgumentHelp("The team store (postgres://user@host:port/database) or a collector's session (https://host/sessions/UUID).", valueName: "url"))
    var store: String

    @Option(
        name: .shortAndLong,
        help: "The session: its number in `rewind sessions URL`, its UUID, or a name no other session of the store has (not needed for a collector's session).")
    var session: String?

    @Option(help: ArgumentHelp("A collector's read token (default: REWIND_TOKEN).", valueName: "token"))
    var token: String?

    @Option(name: .shortAndLong, help: "The log to add it to (created if missing).")
    var output: String

    func run() async throws {
        guard session != nil || CollectorClient.isLocation(store) else { throw ValidationError("missing expected argument '--session <session>'") }
        let selector = session
        let copy = try await SessionStores.reading(store, SessionSelection(.one(selector)), token: token) { readable in
            let reader = try LogReader(path: readable.path)
            return try reader.storedCopy(of: try reader.session(selector))
        }
        let sink = try SQLiteSink(path: output)
        let received: ReceivedBlocks
        do {
            received = try sink.receive(copy)
            try sink.close()
        } catch let error as UploadError {
            try? sink.close()
            throw UploadError(error.kind, "\(output): \(error.message)", storedThrough: error.storedThrough)
        }
        let number = try LogReader(path: output).session(copy.id.uuidString).number
        let label = "\(copy.id.uuidString) (\(copy.summary.name ?? "unnamed"))"
        switch received.outcome {
        case let .added(steps):
            print(TerminalText.escaped("pulled \(label): \(steps) steps into \(output) as #\(number)"))
        case let .extended(steps, storedThrough):
            print(TerminalText.escaped("pulled \(label): \(steps) steps added to #\(number) of \(output), through step \(storedThrough)"))
        case let .held(storedThrough) where storedThrough > copy.summary.lastStep:
            print(
                TerminalText.escaped(
                    "\(output) holds more of \(label) as #\(number): through step \(storedThrough), the store through \(copy.summary.lastStep)"))
        case .held:
            print(TerminalText.escaped("\(output) holds \(label) already as #\(number)"))
        }
    }
}
