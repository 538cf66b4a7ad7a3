import Foundation
import PhotoApp
import RewindCore
import RewindInspector
import RewindJSON
import RewindLog
import RewindReplay

extension BenchmarkSuite {
    var seekSteps: Int { quick ? 3_000 : 1_000_000 }

    /// Records the long login log that seeking, replay and `rewind log` read.
    func recordLongLog() throws -> String {
        let file = path("long.rewind")
        let sink = try SQLiteSink(path: file)
        let recorder = Recorder<LoginState, LoginAction>(sink: sink, session: SessionDescriptor(name: "long", flow: LoginFlow.name))
        let store = loginStore(middleware: [recorder])
        let actions = Self.loginActions
        for index in 0..<seekSteps { store.send(actions[index & 63]) }
        recorder.close()
        try sink.close()
        return file
    }

    func measureReading(into result: inout BenchmarkResult) throws {
        let file = try recordLongLog()
        let reader = try LogReader(path: file)
        let session = try reader.session(nil)
        var random = SeededGenerator(seed: 5)
        var samples: [Double] = []
        for _ in 0..<(quick ? 200 : 2_000) {
            let step = Int.random(in: 0...session.lastStep, using: &random)
            samples.append(try Stopwatch.seconds { _ = try reader.state(of: session, at: step) } * 1_000)
        }
        let seek = Percentiles(samples)
        result.add("seek_p50_ms", seek.p50, "state at a random step, \(seekSteps) steps, p50 (ms)", atMost: 2)
        result.add("seek_p99_ms", seek.p99, "state at a random step, \(seekSteps) steps, p99 (ms)", atMost: 10)

        var rates: [Double] = []
        for _ in 0..<repetitions {
            var replays: [SessionReplay] = []
            let seconds = try Stopwatch.seconds { replays = try Replayer(registry: SeedFlows.registry).replay(path: file) }
            guard replays.first?.passed == true else { throw BenchmarkError("the long login log did not replay clean") }
            rates.append(Double(session.lastStep) / seconds)
        }
        result.add("replay_steps_per_s", median(rates), "replay-verify, login recording (steps/s)", atLeast: 500_000)

        var pages: [Double] = []
        for _ in 0..<5 { pages.append(try runThisProgram(["log", file, "--to", "50"]) * 1_000) }
        result.add("log_first_page_ms", median(pages), "`rewind log` first page of \(seekSteps) steps, whole process (ms)")
        try measureOpening(file, into: &result)
        try measureScan(file, into: &result)
    }

    func measureDiff(into result: inout BenchmarkResult) throws {
        let (old, new) = try LargeStateFeature.statesOneTitleApart(photos: photoCount)
        var samples: [Double] = []
        for _ in 0..<21 {
            samples.append(Stopwatch.seconds { _ = JSONDiff.changes(from: old, to: new) } * 1_000)
        }
        result.add("diff_large_ms", median(samples), "diff of two \(photoCount)-photo states, one change (ms)", atMost: 0.5)
    }
}
