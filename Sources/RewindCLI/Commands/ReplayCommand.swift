import ArgumentParser
import Foundation
import RewindCore
import RewindInspector
import RewindJSON
import RewindLog
import RewindRendering
import RewindReplay
import RewindReport
import RewindTeamStore

/// `rewind replay`: recordings re-run through the current reducers.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Re-run recordings through the current reducers; report the first divergence.",
        discussion: """
            Each session's recorded actions go through the current reducer of its flow from the \
            recorded initial state, with effects not run (their results are recorded actions). \
            Each step's state digest is compared with the recorded one. Exits 0 when every \
            session matches, 1 at the first divergence, nondeterministic step, or recording that \
            no longer decodes. --update rewrites the recorded states from the replay (the \
            actions stay, moved to the flow's current schema) and prints what it accepted: one \
            command to accept an intended change. Replay runs the reducers this command line \
            was built with; an app builds its own with the RewindCLI library. --report DIR writes \
            an HTML page per failed session, the recorded and the replayed state side by side \
            at the failing step, and prints its path: an artifact for CI. --junit FILE writes the \
            run as JUnit XML, one test a session, even when replay fails. --shard I/N replays \
            only part I of N of the sessions, each session's part chosen by its log's file name, \
            number, name and start time, so parallel jobs replay each session once between them. \
            --skip 12,15-18 asks what if those steps had not happened: one session is replayed \
            without them and what they caused (through --only-until N), and the outcome is diffed \
            against the recording; --output writes the replayed session (docs/cli/replay.md).

            Examples:
              rewind replay recordings/*.rewind
              rewind replay recordings/login-happy.rewind --update
              rewind replay recordings/*.rewind --report replay-reports
              rewind replay demo.rewind -s login-invalid-then-fixed --skip 8
              rewind replay recordings/*.rewind --junit replay.xml
              rewind replay recordings/*.rewind --shard 2/4 --junit replay-2.xml
            """
    )

    @Argument(help: "The logs to replay, or team stores (postgres://user@host:port/database).")
    var logs: [String]

    @OptionGroup var session: SessionOption

    @Flag(help: "Accept the new behaviour: rewrite the recorded states from the replay.")
    var update = false

    @Option(help: "Write an HTML report of each session that fails into this folder, opened at the failing step.")
    var report: String?

    @Option(help: ArgumentHelp("Write the run as JUnit XML to this file, one test a session.", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("Replay only part I of N of the sessions (from 1), chosen by each session's identity.", valueName: "I/N"))
    var shard: String?

    @Option(help: ArgumentHelp("What if these steps had not happened: replay without them (and what they caused), like 12,15-18.", valueName: "steps"))
    var skip: String?

    @Option(help: ArgumentHelp("With --skip: replay only through this step of the recording, and compare there.", valueName: "step"))
    var onlyUntil: Int?

    @Option(name: [.customShort("o"), .customLong("output")], help: "With --skip: add the replayed session to this log.")
    var newLog: String?

    @Option(
        name: .customLong("record-verdict"),
        help: ArgumentHelp(
            "Keep each session's outcome beside it in its store, as replayed against this build (a commit, a version): the collector's sessions page shows it.",
            valueName: "build"))
    var recordVerdict: String?

    @OptionGroup var output: JSONOption

    func validate() throws {
        if logs.isEmpty { throw ValidationError("name at least one log") }
        try validateWhatIf()
        if update, report != nil { throw ValidationError("--report shows failures; --update accepts them: choose one") }
        if update, junit != nil { throw ValidationError("--junit reports failures; --update accepts them: choose one") }
        if update, shard != nil { throw ValidationError("--shard splits a check across jobs; --update accepts changes: choose one") }
        if update, logs.contains(where: SessionStores.isElsewhere) {
            throw ValidationError("--update rewrites a log on this machine, not a team store: pull the session into a log first (rewind pull)")
        }
        if let recordVerdict {
            guard ReplayVerdict.isValidBuild(recordVerdict) else {
                throw ValidationError(
                    "invalid --record-verdict \(TerminalText.escaped(recordVerdict).debugDescription): a build is 1 to \(ReplayVerdict.maximumBuildBytes) printable ASCII characters, such as a commit or v2.3.1"
                )
            }
            if update || skip != nil { throw ValidationError("--record-verdict keeps a replay's outcome; it goes with neither --update nor --skip") }
        }
        do {
            _ = try shard.map(ReplayShard.init(parsing:))
        } catch {
            throw ValidationError("\(error)")
        }
    }

    func run() async throws {
        if skip != nil {
            guard let log = logs.first else { return }
            return try await SessionStores.reading(log, SessionSelection(.one(session.session))) { try runWhatIf($0.path) }
        }
        let flows = CommandContext.current.flows
        let replayer = Replayer(registry: flows)
        let shard = self.shard.flatMap { try? ReplayShard(parsing: $0) }
        var junitReport = try junit.map { path in
            for log in logs { try LineWriter.checkOutput(path, readingFrom: log, option: "--junit") }
            return JUnitReport(name: "rewind replay" + (shard.map { ", shard \($0)" } ?? ""))
        }
        var failed = false
        var (sessions, replayed) = (0, 0)
        // A store elsewhere copies only this run's sessions: the one named, or this shard's.
        let selection = SessionSelection(session.session.map { .one($0) } ?? shard.map { .shard($0) } ?? .every)
        for location in logs {
            /// Replays the sessions `selection` names at `location`; `verdicts` is where they go.
            func replaySessions(keepingVerdictsIn verdicts: (any SessionStore)?) async throws {
                try await SessionStores.reading(location, selection) { readable in
                    let log = readable.path
                    let checked = try FlowRequirement(flows: flows).check(log: log, session: session.session, verb: update ? "replay --update" : "replay")
                    // A store's copy holds this shard's sessions; the count is of all it holds.
                    sessions += readable.sessionsHeld ?? checked.count
                    let replays: [(replay: SessionReplay, rewritten: Bool)] =
                        update
                        ? try replayer.update(path: log, session: session.session)
                        : try replayer.replay(path: log, session: session.session, shard: shard).map { ($0, false) }
                    junitReport?.add(log: log)
                    replayed += replays.count
                    for (replay, rewritten) in replays {
                        junitReport?.add(replay)
                        let reportPath = try report.flatMap { folder in try ReportWriter(path: log).writeReport(of: replay, into: folder) }
                        if output.json {
                            var json = ReplayReport.json(replay)
                            if case var .object(object) = json {
                                if update { object["updated"] = .bool(rewritten) }
                                object["report"] = reportPath.map(JSONValue.string)
                                object["shard"] = shard?.json
                                json = .object(object)
                            }
                            print(TerminalText.json(json))
                        } else if update {
                            print(ReplayReport.updateLines(replay, rewritten: rewritten, style: Terminal.style).joined(separator: "\n"))
                        } else {
                            print(ReplayReport.lines(replay, style: Terminal.style).joined(separator: "\n"))
                            if let reportPath { print(TerminalText.escaped("  report: \(reportPath)")) }
                        }
                        if let build = recordVerdict, let verdicts {
                            try await keep(ReplayVerdict(replay, build: build), of: replay.session, in: verdicts)
                        }
                        let accepted = rewritten && !replay.outcome.isRefusedOrNondeterministic
                        failed = failed || (!replay.passed && !accepted)
                    }
                }
            }
            if recordVerdict != nil {
                // The store read, opened once for all of its sessions' verdicts.
                try await SessionStores.withStore(location) { try await replaySessions(keepingVerdictsIn: $0) }
            } else {
                try await replaySessions(keepingVerdictsIn: nil)
            }
        }
        if let shard, !output.json { print("shard \(shard): \(replayed) of \(sessions) sessions") }
        if let junitReport, let path = junit {
            let writer = try LineWriter(replacingFileAt: path)
            try writer.write(raw: Array(junitReport.xml.utf8))
            try writer.finish()
        }
        if failed { throw ExitCode(1) }
    }

    /// Keeps `verdict` in `store`, beside `session`; says so on standard error when the store
    /// cannot (a session of a log too old to have an identity).
    private func keep(_ verdict: ReplayVerdict, of session: SessionSummary, in store: any SessionStore) async throws {
        guard let id = session.id else {
            Self.warn("session \(session.label) has no identity (a log older than format 4): no verdict kept")
            return
        }
        if try await !store.record(verdict, for: id) {
            Self.warn("\(store.name) holds no session \(id.uuidString): no verdict kept")
        }
    }

    private static func warn(_ message: String) {
        FileHandle.standardError.write(Data((TerminalText.escaped("rewind: warning: \(message)") + "\n").utf8))
    }
}
