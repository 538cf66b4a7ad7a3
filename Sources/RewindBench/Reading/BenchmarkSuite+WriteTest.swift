import Foundation
import PhotoApp
import RewindCore
import RewindLog
import RewindReplay

extension BenchmarkSuite {
    /// The length of the session `write-test` writes: DESIGN 18's target is for 1,000 steps.
    var writeTestSteps: Int { quick ? 200 : 1_000 }

    /// `write-test` of a seeded random session of the photo app's app flow (login, then the
    /// photo list: nested enums, an identified array, a secret), beside replaying the same
    /// session: in this process (reading, spelling, writing the file's text) and as the whole
    /// `rewind write-test` process.
    func measureWriteTest(into result: inout BenchmarkResult) async throws {
        let log = path("write-test.rewind")
        let sink = try SQLiteSink(path: log)
        guard let script = SeedFlows.randomScript(flow: AppFlow.name, seed: 7, steps: writeTestSteps) else {
            throw BenchmarkError("no random app driver")
        }
        await script.run(host: RecordingHost(sink: sink), start: Date(timeIntervalSince1970: 1_800_000_000))
        try sink.close()

        let registry = SeedFlows.registry
        let writer = TestWriter(options: TestWriter.Options(version: "bench"))
        var writes: [Double] = []
        var replays: [Double] = []
        var bytes = 0
        for _ in 0..<max(3, repetitions) {
            writes.append(
                try Stopwatch.seconds {
                    let actions = try RecordedActions(log: log, session: nil, registry: registry, keepingStates: true)
                    bytes = try writer.file([TestSession(actions)]).utf8.count
                } * 1_000)
            var replayed: [SessionReplay] = []
            replays.append(try Stopwatch.seconds { replayed = try Replayer(registry: registry).replay(path: log) } * 1_000)
            guard replayed.first?.passed == true else { throw BenchmarkError("the write-test session did not replay clean") }
        }
        result.add("replay_1k_ms", median(replays), "replay-verify of a \(writeTestSteps)-step app session (ms)")
        result.add(
            "write_test_1k_ms", median(writes), "`write-test` of the same session, in process (ms)", baseline: "replay_1k_ms", atMost: 1_000)
        result.add("write_test_1k_kb", Double(bytes) / 1_024, "the test it writes (KB)")
        var processes: [Double] = []
        for _ in 0..<max(3, repetitions) {
            processes.append(try runThisProgram(["write-test", log, "--output", path("WrittenTests.swift")]) * 1_000)
        }
        result.add("write_test_1k_process_ms", median(processes), "`rewind write-test` of the same session, whole process (ms)", atMost: 1_000)
    }
}
