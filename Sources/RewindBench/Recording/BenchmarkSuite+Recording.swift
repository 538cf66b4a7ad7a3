import Foundation
import PhotoApp
import RewindCore
import RewindLog

extension BenchmarkSuite {
    /// Steps per second from the first dispatch until everything is committed, and bytes per
    /// step of the finished log.
    ///
    /// - Parameter explicit: records with a recorder made without the reducer, among the
    ///   store's middleware, rather than the way an app records (a store made with
    ///   `recordingTo:`, whose recorder runs its reducer).
    func recordToDisk<R: Reducer & Sendable>(
        _ name: String, initialState: R.State, reducer: R, actions: [R.Action], explicit: Bool = false
    ) throws -> (stepsPerSecond: Double, bytesPerStep: Double) where R.State: RecordableState, R.Action: RecordableAction {
        let file = path("\(name).rewind")
        let sink = try SQLiteSink(path: file)
        let store =
            explicit
            ? Store(
                initialState: initialState, reducer: reducer, middleware: [Recorder<R.State, R.Action>(sink: sink, session: session(name))],
                execution: .manual)
            : Store(initialState: initialState, reducer: reducer, recordingTo: sink, session: session(name), execution: .manual)
        guard let recorder = store.recorder else { throw BenchmarkError("the store of \(name) has no recorder") }
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
        var explicit: [(stepsPerSecond: Double, bytesPerStep: Double)] = []
        var naive: [(stepsPerSecond: Double, bytesPerStep: Double)] = []
        for repetition in 0..<repetitions {
            ours.append(try recordToDisk("small\(repetition)", initialState: LoginState(), reducer: LoginFeature(backend: backend), actions: actions))
            explicit.append(
                try recordToDisk(
                    "small-explicit\(repetition)", initialState: LoginState(), reducer: LoginFeature(backend: backend), actions: actions,
                    explicit: true))
            naive.append(try recordNaively("small\(repetition)", initialState: LoginState(), reducer: LoginFeature(backend: backend), actions: actions))
        }
        result.add(
            "record_small_steps_per_s", median(ours.map(\.stepsPerSecond)), "recording to disk, login state (steps/s)",
            baseline: "naive_record_small_steps_per_s", atLeast: 200_000)
        result.add(
            "record_small_explicit_steps_per_s", median(explicit.map(\.stepsPerSecond)),
            "recording to disk, login state, recorder without the reducer (steps/s)", baseline: "naive_record_small_steps_per_s")
        result.add("naive_record_small_steps_per_s", median(naive.map(\.stepsPerSecond)), "naive recorder, login state (steps/s)")
        result.add("bytes_per_step_small", median(ours.map(\.bytesPerStep)), "stored per step, login state (bytes)", baseline: "naive_bytes_per_step_small")
        result.add("naive_bytes_per_step_small", median(naive.map(\.bytesPerStep)), "naive JSON lines per step, login state (bytes)")
    }

    /// Recording `photoCount` photos, the way an app records and with a recorder without the
    /// reducer, against the naive recorder; and the same, one change a step, at ten times as
    /// many photos (`xlarge`), where the per-step cost is held to 3× (DESIGN section 7).
    func measureLargeRecording(into result: inout BenchmarkResult) throws {
        let state = LargeStateFeature.state(photos: photoCount)
        let actions = LargeStateFeature.actions(largeSteps, photos: photoCount)
        let xlargeState = LargeStateFeature.state(photos: xlargePhotoCount)
        let xlargeActions = LargeStateFeature.actions(largeSteps, photos: xlargePhotoCount)
        var ours: [(stepsPerSecond: Double, bytesPerStep: Double)] = []
        var explicit: [(stepsPerSecond: Double, bytesPerStep: Double)] = []
        var naive: [(stepsPerSecond: Double, bytesPerStep: Double)] = []
        var xlarge: [(stepsPerSecond: Double, bytesPerStep: Double)] = []
        var xlargeNaive: [(stepsPerSecond: Double, bytesPerStep: Double)] = []
        for repetition in 0..<repetitions {
            ours.append(try recordToDisk("large\(repetition)", initialState: state, reducer: LargeStateFeature(), actions: actions))
            explicit.append(
                try recordToDisk("large-explicit\(repetition)", initialState: state, reducer: LargeStateFeature(), actions: actions, explicit: true))
            naive.append(
                try recordNaively("large\(repetition)", initialState: state, reducer: LargeStateFeature(), actions: Array(actions.prefix(largeSteps / 4))))
            xlarge.append(try recordToDisk("xlarge\(repetition)", initialState: xlargeState, reducer: LargeStateFeature(), actions: xlargeActions))
            // A tenth of the steps of the 1,000-photo naive run: each writes ten times the bytes.
            xlargeNaive.append(
                try recordNaively(
                    "xlarge\(repetition)", initialState: xlargeState, reducer: LargeStateFeature(), actions: Array(xlargeActions.prefix(largeSteps / 40))))
        }
        let bytes = median(ours.map(\.bytesPerStep))
        result.add(
            "record_large_steps_per_s", median(ours.map(\.stepsPerSecond)), "recording to disk, \(photoCount) photos (steps/s)",
            baseline: "naive_record_large_steps_per_s", atLeast: 5_000)
        result.add(
            "record_large_explicit_steps_per_s", median(explicit.map(\.stepsPerSecond)),
            "recording to disk, \(photoCount) photos, recorder without the reducer (steps/s)", baseline: "naive_record_large_steps_per_s")
        result.add("naive_record_large_steps_per_s", median(naive.map(\.stepsPerSecond)), "naive recorder, \(photoCount) photos (steps/s)")
        result.add("bytes_per_step_large", bytes, "stored per step, \(photoCount) photos (bytes)", baseline: "naive_bytes_per_step_large", atMost: 1_024)
        result.add("naive_bytes_per_step_large", median(naive.map(\.bytesPerStep)), "naive JSON lines per step, \(photoCount) photos (bytes)")
        result.add(
            "record_xlarge_steps_per_s", median(xlarge.map(\.stepsPerSecond)), "recording to disk, \(xlargePhotoCount) photos (steps/s)",
            baseline: "naive_record_xlarge_steps_per_s")
        result.add(
            "naive_record_xlarge_steps_per_s", median(xlargeNaive.map(\.stepsPerSecond)), "naive recorder, \(xlargePhotoCount) photos (steps/s)")
        result.add(
            "bytes_per_step_xlarge", median(xlarge.map(\.bytesPerStep)), "stored per step, \(xlargePhotoCount) photos (bytes)",
            baseline: "bytes_per_step_large")
    }
}
