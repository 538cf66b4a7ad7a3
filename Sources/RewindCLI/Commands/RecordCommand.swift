import ArgumentParser
import Foundation
import PhotoApp
import RewindCore
import RewindLog

/// `rewind record`: records one session of a seed flow, scripted or random, into a log.
struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record one session of the photo app into a log.",
        discussion: """
            FLOW is login, photos or app. Play a named script of that flow, or a seeded random \
            user for a number of steps. The session is added after those the log already holds.

            Examples:
              rewind record login --script login-happy --output login.rewind
              rewind record app --random --seed 7 --steps 100000 --output big.rewind
              rewind record app --random --steps 300000 --rate 10000 --flush-every 100 --output live.rewind
            """
    )

    @Argument(help: "The flow to drive: \(seedFlowNames.joined(separator: ", ")).")
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

    func validate() throws {
        guard seedFlowNames.contains(flow) else {
            throw ValidationError("unknown flow '\(flow)'; choose one of \(seedFlowNames.joined(separator: ", "))")
        }
        switch (script, random) {
        case (nil, false): throw ValidationError("choose --script NAME or --random")
        case (.some, true): throw ValidationError("choose either --script or --random, not both")
        case let (name?, false):
            let scripts = ScriptedSession.all.filter { $0.flow == flow }.map(\.name)
            guard scripts.contains(name) else {
                throw ValidationError("no script '\(name)' for flow \(flow); choose one of \(scripts.joined(separator: ", "))")
            }
        case (nil, true):
            guard steps > 0 else { throw ValidationError("--steps must be at least 1") }
        }
        if let flushEvery, flushEvery < 1 { throw ValidationError("--flush-every must be at least 1") }
        if let rate, !(rate > 0 && rate.isFinite) { throw ValidationError("--rate must be a number of steps per second above 0") }
    }

    func run() async throws {
        let number = try await record()
        let summary = try CommandErrors.reporting { try LogReader(path: output).session(String(number)) }
        print("recorded session #\(summary.number) (\(summary.name ?? "unnamed"), \(summary.flow) flow): \(summary.lastStep) steps into \(output)")
    }

    @MainActor
    private func record() async throws -> Int {
        let sink = try CommandErrors.reporting { try SQLiteSink(path: output) }
        let host = FlushingHost(sink: sink, every: flushEvery, rate: rate)
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        if let script, let session = ScriptedSession.named(script) {
            await session.run(host: host, start: start)
        } else if let session = RandomSession(flow: flow, seed: seed, steps: steps) {
            await session.run(host: host, start: start)
        }
        try CommandErrors.reporting { try sink.close() }
        return try CommandErrors.reporting { try LogReader(path: output).sessions().last?.number ?? 0 }
    }
}
