import ArgumentParser
import Foundation
import RewindCore
import RewindLog
import RewindUpload

/// Devices uploading at once, for `tools/load-test`: each log is a device, uploaded by its own
/// ``Uploader`` (the one apps run) in batches, all at once, each request tried again as apps
/// try it. Prints one JSON object of figures; with `--acks`, writes every acknowledgement, one
/// a line, so that the tool can check each is in the store after the collector was killed under it;
/// with `--progress`, appends a line as each request is acknowledged, so that the tool can
/// kill the collector at a share of the upload done, whatever the machine's speed.
@main
struct LoadClient: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rewind-load-client", abstract: "Upload many logs to a collector at once.")

    @Option(help: "The collector, http://host:port.")
    var collector: String

    @Option(help: "An upload token.")
    var token: String

    @Option(help: "Blocks in one batch.")
    var batchBlocks = 1

    @Option(help: "Write every acknowledgement here: session, stored-through step.")
    var acks: String?

    @Option(help: "Append a line here as each request is acknowledged.")
    var progress: String?

    @Option(help: "Tries of one request (the uploader's default is 8).")
    var attempts = 8

    @Option(help: "Milliseconds each device waits before each request: devices sending a batch now and then, not at once.")
    var pauseMs = 0

    @Argument(help: "The logs, one a device.")
    var logs: [String]

    func run() async throws {
        let (root, _) = try CollectorClient.parse(collector)
        let tally = try progress.map(ProgressFile.init(path:))
        let started = DispatchTime.now().uptimeNanoseconds
        let outcomes = try await withThrowingTaskGroup(of: [Uploader.Outcome].self) { group in
            for log in logs {
                group.addTask {
                    let client = CollectorClient(root: root, token: token, retry: RetryPolicy(attempts: attempts))
                    var uploader = Uploader(log: log, to: Paced(client, pause: pauseMs, progress: tally))
                    uploader.batchBlocks = batchBlocks
                    return try await uploader.upload()
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        // A request's time, without the pause before it.
        let sorted = outcomes.flatMap { $0.batches.map { max(0, $0.seconds - Double(pauseMs) / 1000) } }.sorted()
        let steps = outcomes.reduce(0) { $0 + $1.steps }
        if let acks {
            let lines = outcomes.flatMap { outcome in outcome.batches.map { "\(outcome.session.uuidString) \($0.storedThrough)\n" } }
            try lines.joined().write(toFile: acks, atomically: true, encoding: .utf8)
        }
        func percentile(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        let figures: [String: Any] = [
            "devices": logs.count, "requests": sorted.count, "steps": steps, "seconds": seconds,
            "steps_per_s": Double(steps) / seconds, "p50_ms": percentile(0.5) * 1000, "p99_ms": percentile(0.99) * 1000,
        ]
        print(String(decoding: try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys]), as: UTF8.self))
    }
}

/// A destination that waits before each request, as a device that sends a batch now and then.
struct Paced: SessionDestination {
    let client: CollectorClient
    let pause: Int
    let progress: ProgressFile?

    init(_ client: CollectorClient, pause: Int, progress: ProgressFile?) {
        self.client = client
        self.pause = pause
        self.progress = progress
    }

    var name: String { client.name }

    func receive(_ upload: StoredSessionCopy) async throws -> ReceivedBlocks {
        if pause > 0 { try await Task.sleep(nanoseconds: UInt64(pause) * 1_000_000) }
        let received = try await client.receive(upload)
        try await progress?.acknowledged()
        return received
    }

    func progress(of id: UUID) async throws -> ReceivedBlocks? {
        try await client.progress(of: id)
    }

    func record(_ verdict: ReplayVerdict, for id: UUID) async throws -> Bool {
        try await client.record(verdict, for: id)
    }

    func close() async {
        await client.close()
    }
}
