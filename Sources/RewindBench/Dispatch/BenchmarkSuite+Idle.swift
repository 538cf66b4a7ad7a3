import Foundation
import PhotoApp
import RewindCore
import RewindLog

/// Dispatch at a human pace (DESIGN section 7): each step after the recorder has caught up.
///
/// The baseline is a store without recording dispatched after the same pause: before each
/// timed dispatch the app's thread hands one step to a recorded store beside it and waits for
/// that recorder to write it. A dispatch after a pause finds cold caches with or without
/// Rewind (0.4-0.9 µs on the 1,000-photo state, against 33 ns for one of many in a row), so a
/// ratio to dispatches in a row would measure the pause, not the recorder.
extension BenchmarkSuite {
    /// The nanoseconds of single dispatches of `actions` on `store`, each after `pause(index)`
    /// (untimed).
    func sampleIdle<State, Action>(_ store: Store<State, Action>, _ actions: [Action], pause: (Int) -> Void) -> Percentiles {
        let overhead = Stopwatch.overhead
        var samples: [Double] = []
        samples.reserveCapacity(actions.count)
        for (index, action) in actions.enumerated() {
            pause(index)
            let start = Stopwatch.now()
            store.send(action)
            samples.append(max(0, Double(Stopwatch.now() - start) - overhead))
        }
        return Percentiles(samples)
    }

    /// Recorded and plain stores of the same reducer dispatched at a human pace, in turn:
    /// returns the recorded p50 and p99 and the plain ones. `recorded(name)` makes a store that
    /// records the way an app does.
    func measureIdle<State, Action>(
        actions: [Action], recorded: (String) -> Store<State, Action>, plain: () -> Store<State, Action>
    ) -> (recording: Percentiles, plain: Percentiles) {
        let store = recorded("idle")
        let recording = sampleIdle(store, actions) { _ in store.recorder?.flush() }
        store.recorder?.close()
        let companion = recorded("idle-companion")
        let plainStore = plain()
        let baseline = sampleIdle(plainStore, actions) { index in
            companion.send(actions[index])
            companion.recorder?.flush()
        }
        companion.recorder?.close()
        return (recording, baseline)
    }

    /// The login state at a human pace.
    func measureLoginIdle(into result: inout BenchmarkResult) throws {
        let sink = try SQLiteSink(path: path("dispatch-idle.rewind"))
        let actions = (0..<(quick ? 200 : 4_000)).map { Self.loginActions[$0 & 63] }
        let backend = FakeBackend(seed: 1, clock: SimulatedClock(start: Date()))
        let (recording, plain) = measureIdle(actions: actions) { name in
            Store(
                initialState: LoginState(), reducer: LoginFeature(backend: backend), recordingTo: sink, session: session(name),
                execution: .manual)
        } plain: {
            loginStore()
        }
        try sink.close()
        add("", "login", recording: recording, plain: plain, to: &result)
    }

    /// The login state after the recorder's threads have gone to sleep (past 50 naps of a
    /// millisecond, ``RingSleeper``): the push then wakes the encoder with a system call on the
    /// dispatching thread, so that the step reaches the log within milliseconds, and a crash
    /// loses no more. No target: the pause is 60 ms, so few samples are taken.
    func measureLoginAsleep(into result: inout BenchmarkResult) throws {
        let sink = try SQLiteSink(path: path("dispatch-asleep.rewind"))
        let actions = (0..<(quick ? 10 : 200)).map { Self.loginActions[$0 & 63] }
        let backend = FakeBackend(seed: 1, clock: SimulatedClock(start: Date()))
        let store = Store(
            initialState: LoginState(), reducer: LoginFeature(backend: backend), recordingTo: sink, session: session("asleep"),
            execution: .manual)
        let recording = sampleIdle(store, actions) { _ in
            store.recorder?.flush()
            Thread.sleep(forTimeInterval: 0.06)
        }
        store.recorder?.close()
        try sink.close()
        let plain = sampleIdle(loginStore(), actions) { _ in Thread.sleep(forTimeInterval: 0.06) }
        result.add("dispatch_plain_asleep_ns", plain.p50, "dispatch, login, no recording, after 60 ms, p50 (ns)")
        result.add(
            "dispatch_recording_asleep_ns", recording.p50, "dispatch, login, recorder asleep (60 ms after the last step), p50 (ns)",
            baseline: "dispatch_plain_asleep_ns")
    }

    /// The photo states at a human pace, `photoCount` and ten times as many: flat in the size.
    func measureLargeIdle(into result: inout BenchmarkResult) throws {
        for (key, photos) in [("large", photoCount), ("xlarge", xlargePhotoCount)] {
            let sink = try SQLiteSink(path: path("dispatch-\(key)-idle.rewind"))
            let state = LargeStateFeature.state(photos: photos)
            let (recording, plain) = measureIdle(actions: LargeStateFeature.actions(quick ? 200 : 2_000, photos: photos)) { name in
                Store(
                    initialState: state, reducer: LargeStateFeature(), recordingTo: sink, session: SessionDescriptor(name: name, flow: Self.largeFlow.name),
                    execution: .manual)
            } plain: {
                Store(initialState: state, reducer: LargeStateFeature(), execution: .manual)
            }
            try sink.close()
            add("_\(key)", "\(photos) photos", recording: recording, plain: plain, to: &result)
        }
    }

    /// The figures of one state: `dispatch_recording<key>_idle_ns` and its p99, the plain
    /// ones, and their ratios with DESIGN section 7's targets.
    private func add(_ key: String, _ label: String, recording: Percentiles, plain: Percentiles, to result: inout BenchmarkResult) {
        let plainKey = "dispatch_plain\(key)_idle_ns"
        result.add(plainKey, plain.p50, "dispatch, \(label), no recording, after a pause, p50 (ns)")
        result.add("dispatch_plain\(key)_idle_p99_ns", plain.p99, "dispatch, \(label), no recording, after a pause, p99 (ns)")
        result.add(
            "dispatch_recording\(key)_idle_ns", recording.p50, "dispatch, \(label), recorder idle, p50 (ns)", baseline: plainKey)
        result.add(
            "dispatch_recording\(key)_idle_p99_ns", recording.p99, "dispatch, \(label), recorder idle, p99 (ns)",
            baseline: "dispatch_plain\(key)_idle_p99_ns")
        result.add(
            "ratio_dispatch_recording\(key)_idle", recording.p50 / max(1, plain.p50),
            "ratio: dispatch with an idle recorder / without, after a pause, \(label), p50 (×)", atMost: 3)
        result.add(
            "ratio_dispatch_recording\(key)_idle_p99", recording.p99 / max(1, plain.p99),
            "ratio: the same, p99 (×)", atMost: 10)
    }
}
