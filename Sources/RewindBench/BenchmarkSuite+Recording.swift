import Foundation
import PhotoApp
import RewindCore
import RewindLog

extension BenchmarkSuite {
    /// Steps per second from the first dispatch until everything is committed, and bytes per
    /// step of the finished log.
    ///
    /// - Parameter makeRecorder: makes the recorder, one without a replica unless given.
    func recordToDisk<State: RecordableState, Action: RecordableAction>(
        _ name: String, initialState: State, reducer: some Reducer<State, Action>, actions: [Action],
        makeRecorder: (SQLiteSink, SessionDescriptor) -> Recorder<State, Action> = { Recorder(sink: $0, session: $1) }
    ) throws -> (stepsPerSecond: Double, bytesPerStep: Double) {
        let file = path("\(name).rewind")
        let sink = try SQLiteSink(path: file)
        let recorder = makeRecorder(sink, session(name))
        let store = Store(initialState: initialState, reducer: reducer, middleware: [recorder], execution: .manual)
        let emptySize = fileSize(file)
        let seconds = Stopwatch.seconds {
            for action in actions { store.send(action) }
            recorder.flush()
        }
        recorder.close()
        try sink.close()
        let bytes = (fileSize(file) - emptySize) / Double(actions.count)
        try FileManager.default.removeItem(atPath: file)
        return (Double(actions.count) / seconds, bytes)
    }

    /// The same with the naive recorder.
    func recordNaively<State: RecordableState, Action: RecordableAction>(
        _ name: String, initialState: State, reducer: some Reducer<State, Action>, actions: [Action]
    ) throws -> (stepsPerSecond: Double, bytesPerStep: Double) {
        let file = path("\(name).jsonl")
        let naive = try NaiveRecorder<State, Action>(path: file)
        let store = Store(initialState: initialState, reducer: reducer, middleware: [naive], execution: .manual)
        let seconds = Stopwatch.seconds {
            for action in actions { store.send(action) }
        }
        try naive.close()
        let bytes = fileSize(file) / Double(actions.count + 1)
        try FileManager.default.removeItem(atPath: file)
        return (Double(actions.count) / seconds, bytes)
    }

    func measureSmallRecording(into result: inout BenchmarkResult) throws {
        let backend = FakeBackend(seed: 1, clock: SimulatedClock(start: Date()))
        let actions = (0..<smallSteps).map { Self.loginActions[$0 & 63] }
        var ours: [(stepsPerSecond: Double, bytesPerStep: Double)] = []
        var naive: [(stepsPerSecond: Double, bytesPerStep: Double)] = []
        for repetition in 0..<repetitions {
            ours.append(try recordToDisk("small\(repetition)", initialState: LoginState(), reducer: LoginFeature(backend: backend), actions: actions))
            naive.append(try recordNaively("small\(repetition)", initialState: LoginState(), reducer: LoginFeature(backend: backend), actions: actions))
        }
        result.add(
            "record_small_steps_per_s", median(ours.map(\.stepsPerSecond)), "recording to disk, login state (steps/s)",
            baseline: "naive_record_small_steps_per_s", atLeast: 200_000)
        result.add("naive_record_small_steps_per_s", median(naive.map(\.stepsPerSecond)), "naive recorder, login state (steps/s)")
        result.add("bytes_per_step_small", median(ours.map(\.bytesPerStep)), "stored per step, login state (bytes)", baseline: "naive_bytes_per_step_small")
        result.add("naive_bytes_per_step_small", median(naive.map(\.bytesPerStep)), "naive JSON lines per step, login state (bytes)")
    }

    func measureLargeRecording(into result: inout BenchmarkResult) throws {
        let state = LargeStateFeature.state(photos: photoCount)
        let actions = LargeStateFeature.actions(largeSteps, photos: photoCount)
        var ours: [(stepsPerSecond: Double, bytesPerStep: Double)] = []
        var replicating: [(stepsPerSecond: Double, bytesPerStep: Double)] = []
        var naive: [(stepsPerSecond: Double, bytesPerStep: Double)] = []
        for repetition in 0..<repetitions {
            ours.append(try recordToDisk("large\(repetition)", initialState: state, reducer: LargeStateFeature(), actions: actions))
            replicating.append(
                try recordToDisk("large-replica\(repetition)", initialState: state, reducer: LargeStateFeature(), actions: actions) {
                    Recorder(sink: $0, session: $1, replicating: LargeStateFeature())
                })
            naive.append(
                try recordNaively("large\(repetition)", initialState: state, reducer: LargeStateFeature(), actions: Array(actions.prefix(largeSteps / 4))))
        }
        let bytes = median(ours.map(\.bytesPerStep))
        result.add(
            "record_large_steps_per_s", median(ours.map(\.stepsPerSecond)), "recording to disk, \(photoCount) photos (steps/s)",
            baseline: "naive_record_large_steps_per_s", atLeast: 5_000)
        result.add(
            "record_large_replica_steps_per_s", median(replicating.map(\.stepsPerSecond)),
            "recording to disk, \(photoCount) photos, replicating recorder (steps/s)", baseline: "naive_record_large_steps_per_s")
        result.add("naive_record_large_steps_per_s", median(naive.map(\.stepsPerSecond)), "naive recorder, \(photoCount) photos (steps/s)")
        result.add("bytes_per_step_large", bytes, "stored per step, \(photoCount) photos (bytes)", baseline: "naive_bytes_per_step_large", atMost: 1_024)
        result.add("naive_bytes_per_step_large", median(naive.map(\.bytesPerStep)), "naive JSON lines per step, \(photoCount) photos (bytes)")
    }
}
