import ArgumentParser
import Foundation
import RewindInspector
import RewindLog
import RewindRendering
import RewindTeamStore
import RewindUpload

/// `rewind push`: copies the sessions of logs into another store.
struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Copy the sessions of logs into a team store on PostgreSQL, another log, or a collector.",
        discussion: """
            Each session goes in whole or not at all, under its UUID: pushing a log twice adds \
            nothing and says so, a push that was killed is completed by the next, and a session \
            still being recorded is copied as far as its last commit, the rest by a later push. \
            Every block is checked against its checksum first. Needs a rewind built with the \
            Servers trait (docs/team-store.md). To a collector (https://…, docs/collector.md) \
            sessions go in batches, each acknowledged once stored: a push cut short goes on \
            where it stopped; it needs an upload token. To another log, sessions are copied \
            as to a team store (the log is made if missing).

            Examples:
              swift run --traits Servers rewind push demo.rewind --to postgres://rewind@127.0.0.1:5432/rewind
              rewind push demo.rewind --to https://rewind.example.com --token "$UPLOAD_TOKEN"
            """
    )

    @Argument(help: "The logs whose sessions to copy.")
    var logs: [String]

    @Option(
        help: ArgumentHelp(
            "The team store, postgres://user@host:port/database (libpq's PGPASSWORD, ~/.pgpass, sslmode), a collector, https://host[:port], or a log.",
            valueName: "location"))
    var to: String

    @Option(help: ArgumentHelp("A collector's upload token (default: REWIND_TOKEN).", valueName: "token"))
    var token: String?

    @Flag(help: "With a collector: print a link to each session's report that opens without a token for 7 days.")
    var link = false

    func validate() throws {
        guard !logs.isEmpty else { throw ValidationError("give at least one log to push") }
        if link, !CollectorClient.isLocation(to) {
            throw ValidationError("--link asks a collector (--to https://…) for links; a team store makes none")
        }
    }

    func run() async throws {
        // A collector takes a session in bodies its limit bounds (8 MiB by default) and may
        // answer "later": the uploader cuts each session into uploads and goes on from what
        // the collector holds. A log and a team store take a whole copy in one transaction.
        let failed =
            if CollectorClient.isLocation(to) {
                try await SessionStores.withDestination(to, token: token) { destination in try await eachLog { try await upload($0, to: destination) } }
            } else {
                try await SessionStores.withStore(to) { store in try await eachLog { try await push($0, to: store) } }
            }
        if failed { throw ExitCode(65) }
    }

    /// `body` for every log; true when one of them was refused or could not be read: a log
    /// that cannot be read keeps no other log's sessions out.
    private func eachLog(_ body: (String) async throws -> Bool) async throws -> Bool {
        var failed = false
        for log in logs {
            do {
                failed = try await body(log) || failed
            } catch let error as LogError {
                failed = true
                report(error)
            }
        }
        return failed
    }

    /// A reader of `log`, migrated first when it is older than this rewind: sessions of an
    /// older log get their identity as a writer migrates it.
    private func reader(of log: String) throws -> LogReader {
        let reader = try LogReader(path: log)
        guard reader.formatVersion < SQLiteSink.formatVersion else { return reader }
        try SQLiteSink(path: log).close()
        return try LogReader(path: log)
    }

    /// Uploads every session of `log` to a collector, over its protocol, its blocks held too,
    /// for the collector to compare: the lines and the refusals are a log's and a team store's.
    /// True when one of them was refused, after the others went.
    private func upload(_ log: String, to destination: any SessionDestination) async throws -> Bool {
        let reader = try reader(of: log)
        var uploader = Uploader(log: log, to: destination)
        uploader.checksHeld = true
        var refused = false
        for session in try reader.sessions() {
            let label = "\(log) \(session.label) \(session.id?.uuidString ?? "")"
            let outcome: Uploader.Outcome
            do {
                outcome = try await uploader.upload(session, from: reader)
            } catch let error as UploadError {
                refused = true
                report(UploadError(error.kind, "\(label): \(error.message)", storedThrough: error.storedThrough))
                continue
            }
            if outcome.created {
                print(TerminalText.escaped("pushed \(label): \(outcome.addedSteps) steps"))
            } else if !outcome.alreadyThere {
                print(TerminalText.escaped("pushed \(label): \(outcome.addedSteps) steps added, through step \(outcome.storedThrough)"))
            } else if outcome.storedThrough > session.lastStep {
                print(TerminalText.escaped("the store holds more: \(label): through step \(outcome.storedThrough), the log through \(session.lastStep)"))
            } else {
                print(TerminalText.escaped("already in the store: \(label)"))
            }
            if link, let collector = destination as? CollectorStore {
                print(TerminalText.escaped("link: \(try await collector.collector.link(for: outcome.session).absoluteString)"))
            }
        }
        return refused
    }

    private func report(_ error: any Error) {
        _ = CommandErrors.report(error, commandName: CommandContext.current.commandName)
    }

    /// Pushes every session of `log`; true when one of them was refused (damaged, stored in
    /// rows, or disagreeing with the store's), after the others went.
    private func push(_ log: String, to store: any SessionStore) async throws -> Bool {
        let reader = try reader(of: log)
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
            let label = "\(log) \(session.label) \(copy.id.uuidString)"
            let outcome: CopyOutcome
            do {
                outcome = try await store.receive(copy).outcome
            } catch let error as UploadError {
                // Steps that disagree with the store's keep no other session out.
                refused = true
                report(UploadError(error.kind, "\(label): \(error.message)", storedThrough: error.storedThrough))
                continue
            }
            switch outcome {
            case let .added(steps):
                print(TerminalText.escaped("pushed \(label): \(steps) steps"))
            case let .extended(steps, storedThrough):
                print(TerminalText.escaped("pushed \(label): \(steps) steps added, through step \(storedThrough)"))
            case let .held(storedThrough) where storedThrough > copy.summary.lastStep:
                print(TerminalText.escaped("the store holds more: \(label): through step \(storedThrough), the log through \(copy.summary.lastStep)"))
            case .held:
                print(TerminalText.escaped("already in the store: \(label)"))
            }
        }
        return refused
    }
}
