import ArgumentParser
import Foundation
import RewindCore
import RewindLog
import RewindRendering

/// `record`: records one session of a flow, scripted or random, into a log.
struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record one scripted or random session of a flow into a log.",
        discussion: """
            Plays a named script of FLOW, or a seeded random user for a number of steps (when \
            the command line has a random driver; the stock rewind has one for login, photos \
            and app). The session is added after those the log already holds. A log that is \
            damaged, of a newer format or not a Rewind log is refused.

            Examples:
              rewind record login --script login-happy --output login.rewind
              rewind record app --random --seed 7 --steps 100000 --output big.rewind
              rewind record app --random --steps 300000 --rate 10000 --flush-every 100 --output live.rewind
              rewind record login --random --steps 100000 --retain-steps 1000 --output flight.rewind
            """
    )

    @Argument(help: "The flow to drive.")
    var flow: String

    @Option(help: "The scripted session to play.")
    var script: String?

    @Flag(help: "Play a seeded random user instead of a script.")
    var random = false

    @Option(help: "The random user's seed.")
    var seed: UInt64 = 1

    @Option(help: "How many steps the random user plays.")
    var steps = 1_000

    @Option(name: .shortAndLong, help: "The log to add the session to (created if missing).")
    var output: String

    @Option(help: "Flush every N steps and report each flush on standard error (for crash tests).")
    var flushEvery: Int?

    @Option(help: "Hold the session to this many steps per second (for tests that read while it records).")
    var rate: Double?

    @Option(help: ArgumentHelp("Keep only the last N steps of the session, as a flight recorder does (whole blocks leave from the front).", valueName: "n"))
    var retainSteps: Int?

    @Option(help: ArgumentHelp("Keep only the last M minutes of the session's time.", valueName: "m"))
    var retainMinutes: Double?

    @Option(help: ArgumentHelp("Keep only the newest blocks of the session that fit in B bytes as stored.", valueName: "b"))
    var retainBytes: Int?

    /// What `--retain-*` ask to keep.
    var retention: LogRetention {
        LogRetention(steps: retainSteps, seconds: retainMinutes.map { $0 * 60 }, bytes: retainBytes)
    }

    func validate() throws {
        let commandLine = CommandContext.current
        let flows = Set(commandLine.scripts.map(\.flow)).union(commandLine.randomScript == nil ? [] : commandLine.flows.names)
        guard flows.contains(flow) else {
            if commandLine.flows[flow] != nil {
                throw ValidationError(
                    "flow '\(flow)' is registered for replay, but \(commandLine.commandName) has no script or random driver to record it; "
                        + "give RewindCommandLine scripts: or randomScript: (docs/cli.md#recording-an-apps-sessions)")
            }
            let known = flows.isEmpty ? "this command line has no scripts to record" : "choose one of \(flows.sorted().joined(separator: ", "))"
            throw ValidationError("unknown flow '\(flow)'; \(known)")
        }
        switch (script, random) {
        case (nil, false): throw ValidationError("choose --script NAME or --random")
        case (.some, true): throw ValidationError("choose either --script or --random, not both")
        case let (name?, false):
            let scripts = commandLine.scripts.filter { $0.flow == flow }.map(\.name)
            guard scripts.contains(name) else {
                throw ValidationError("no script '\(name)' for flow \(flow); choose one of \(scripts.joined(separator: ", "))")
            }
        case (nil, true):
            guard commandLine.randomScript?(flow, seed, max(1, steps)) != nil else {
                let scripts = commandLine.scripts.filter { $0.flow == flow }.map(\.name)
                throw ValidationError("no random driver for flow \(flow); play a script instead: \(scripts.joined(separator: ", "))")
            }
            guard steps > 0 else { throw ValidationError("--steps must be at least 1") }
        }
        if let flushEvery, flushEvery < 1 { throw ValidationError("--flush-every must be at least 1") }
        if let rate, !(rate > 0 && rate.isFinite) { throw ValidationError("--rate must be a number of steps per second above 0") }
        if let retainSteps, retainSteps < 1 { throw ValidationError("--retain-steps must be at least 1") }
        if let retainMinutes, !(retainMinutes > 0 && retainMinutes.isFinite) { throw ValidationError("--retain-minutes must be a number above 0") }
        if let retainBytes, retainBytes < 1 { throw ValidationError("--retain-bytes must be at least 1") }
    }

    func run() async throws {
        let commandLine = CommandContext.current
        let chosen =
            random
            ? commandLine.randomScript?(flow, seed, steps)
            : commandLine.scripts.first { $0.flow == flow && $0.name == script }
        guard let chosen else { throw ValidationError("nothing to play for flow \(flow)") }
        let number = try await record(chosen)
        let summary = try LogReader(path: output).session(String(number))
        let kept = summary.notKeptText.map { ", \($0)" } ?? ""
        print(
            TerminalText.escaped(
                "recorded session #\(summary.number) (\(summary.name ?? "unnamed"), \(summary.flow) flow): \(summary.lastStep) steps into \(output)\(kept)"))
        try LogFiles.warnOfDamage(in: output)
    }

    @MainActor
    private func record(_ script: SessionScript) async throws -> Int {
        let sink = try SQLiteSink(path: output, retention: retention)
        let host = FlushingHost(sink: sink, every: flushEvery, rate: rate)
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        await script.run(host: host, start: start)
        try sink.close()
        // The session just written is the last; the others are checked by whoever reads them.
        return try LogReader(path: output).sessions(allowingDamage: true).last?.number ?? 0
    }
}
