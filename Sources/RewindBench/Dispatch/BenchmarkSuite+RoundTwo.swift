import Foundation
import PhotoApp
import RewindCore
import RewindInspector
import RewindLog
import RewindReplay

/// The figures of the second round (DESIGN section 7): what recording costs the dispatching
/// thread on a large state, replay of large states, and what the command line pays to open a
/// long log and to scan every state of it.
extension BenchmarkSuite {
    /// Dispatch on the 1,000-photo state without and with a recorder, p50. The way an app
    /// records (a store made with `recordingTo:`) hands the recorder the action alone and its
    /// state only at the checks; a recorder without the reducer keeps the queued state, which
    /// shares the photo array's storage, so the next mutation copies it while it is busy.
    func measureLargeDispatch(into result: inout BenchmarkResult) throws {
        let count = quick ? 200 : 4_000
        let actions = LargeStateFeature.actions(count, photos: photoCount)
        let state = LargeStateFeature.state(photos: photoCount)
        let sink = try SQLiteSink(path: path("dispatch-large.rewind"))
        /// The median and 99th percentile of dispatches on `store`: the median over runs of
        /// dispatches in a row, from the first half of the actions, and the tail over single
        /// dispatches, from the second (see `sampleDispatch`). The recorder is busy: dispatches
        /// at a human pace are `measureLargeIdle`'s.
        func sample(_ store: Store<PhotosState, LargeStateFeature.Action>) -> (p50: Double, p99: Double) {
            let overhead = Stopwatch.overhead
            let run = Self.dispatchRun
            let half = actions.count / 2
            var runs: [Double] = []
            for first in stride(from: 0, to: half - run + 1, by: run) {
                let start = Stopwatch.now()
                for action in actions[first..<(first + run)] { store.send(action) }
                runs.append(max(0, Double(Stopwatch.now() - start) - overhead) / Double(run))
            }
            let singles = sampleIdle(store, Array(actions[half...])) { _ in }
            store.recorder?.close()
            return (Percentiles(runs).p50, singles.p99)
        }
        func recorded(_ name: String) -> Store<PhotosState, LargeStateFeature.Action> {
            Store(initialState: state, reducer: LargeStateFeature(), recordingTo: sink, session: session(name), execution: .manual)
        }
        func explicit(_ name: String) -> Store<PhotosState, LargeStateFeature.Action> {
            Store(
                initialState: state, reducer: LargeStateFeature(),
                middleware: [Recorder<PhotosState, LargeStateFeature.Action>(sink: sink, session: session(name))], execution: .manual)
        }
        let plain = sample(Store(initialState: state, reducer: LargeStateFeature(), execution: .manual))
        let recording = sample(recorded("dispatch-large"))
        let explicitRecording = sample(explicit("dispatch-large-explicit"))
        try sink.close()
        result.add("dispatch_plain_large_ns", plain.p50, "dispatch, \(photoCount) photos, no recording, p50 of runs (ns)")
        result.add(
            "dispatch_recording_large_ns", recording.p50, "dispatch, \(photoCount) photos, recorder busy, p50 of runs (ns)",
            baseline: "dispatch_plain_large_ns", atMost: plain.p50 * 3)
        result.add(
            "dispatch_recording_large_p99_ns", recording.p99, "dispatch, \(photoCount) photos, recorder busy, p99 (ns)",
            baseline: "dispatch_plain_large_ns")
        result.add(
            "dispatch_recording_large_explicit_ns", explicitRecording.p50,
            "dispatch, \(photoCount) photos, recorder without the reducer busy, p50 of runs (ns)", baseline: "dispatch_plain_large_ns")
    }

    /// Replay-verify of a recording of `photoCount` photos and of one of ten times as many,
    /// one change a step: what a step costs as the state grows.
    func measureLargeReplay(into result: inout BenchmarkResult) throws {
        for (key, photos) in [("large", photoCount), ("xlarge", xlargePhotoCount)] {
            let file = path("replay-\(key).rewind")
            let sink = try SQLiteSink(path: file)
            let store = Store(
                initialState: LargeStateFeature.state(photos: photos), reducer: LargeStateFeature(), recordingTo: sink,
                session: SessionDescriptor(name: key, flow: Self.largeFlow.name), execution: .manual)
            for action in LargeStateFeature.actions(largeSteps, photos: photos) { store.send(action) }
            store.recorder?.close()
            try sink.close()
            var rates: [Double] = []
            for _ in 0..<repetitions {
                var replays: [SessionReplay] = []
                let seconds = try Stopwatch.seconds { replays = try Replayer(registry: ReplayRegistry([Self.largeFlow])).replay(path: file) }
                guard replays.first?.passed == true else { throw BenchmarkError("the \(key) recording did not replay clean") }
                rates.append(Double(largeSteps) / seconds)
            }
            result.add(
                "replay_\(key)_steps_per_s", median(rates), "replay-verify, \(photos) photos (steps/s)", baseline: "record_\(key)_steps_per_s")
        }
    }

    static let largeFlow = ReplayFlow("large-photos") { LargeStateFeature() }

    /// `rewind sessions` on the long log, whole process: what opening a log costs.
    func measureOpening(_ file: String, into result: inout BenchmarkResult) throws {
        var samples: [Double] = []
        for _ in 0..<5 { samples.append(try runThisProgram(["sessions", file]) * 1_000) }
        result.add("open_ms", median(samples), "`rewind sessions` of \(seekSteps) steps, whole process (ms)", atMost: 20)
    }

    /// `find` over every state of the long log, in process: a predicate that never holds.
    func measureScan(_ file: String, into result: inout BenchmarkResult) throws {
        let inspector = try LogInspector(path: file)
        let session = try inspector.session(nil)
        let predicate = try StatePredicate(parsing: #"username == "nobody""#)
        var rates: [Double] = []
        for _ in 0..<repetitions {
            let seconds = try Stopwatch.seconds { try inspector.find(predicate, in: [session]) { _ in true } }
            rates.append(Double(session.lastStep + 1) / seconds)
        }
        result.add("scan_steps_per_s", median(rates), "`find` over every state of \(seekSteps) steps (steps/s)", atLeast: 1_000_000)
    }

    /// Runs this executable with `arguments`, output discarded, and returns the seconds.
    func runThisProgram(_ arguments: [String]) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let seconds = try Stopwatch.seconds {
            try process.run()
            process.waitUntilExit()
        }
        guard process.terminationStatus == 0 else { throw BenchmarkError("rewind \(arguments[0]) exited \(process.terminationStatus)") }
        return seconds
    }
}
