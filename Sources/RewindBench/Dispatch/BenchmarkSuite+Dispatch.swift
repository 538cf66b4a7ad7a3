import CStepTicks
import Foundation
import PhotoApp
import RewindCore
import RewindLog

extension BenchmarkSuite {
    /// Login actions that each change the state, made before timing starts.
    static let loginActions: [LoginAction] = (0..<64).map { .didUpdateUsername("user\($0)") }

    /// Dispatches `count` login actions and returns the nanoseconds of each, or with
    /// `perSample` above 1, the mean of each run of that many dispatches in a row.
    ///
    /// Medians are taken over runs (``dispatchRun``): this machine's clock moves in steps of
    /// 10 ns (two reads 20, 21, 30 or 31 ns apart, in a C loop), a fourth of a plain dispatch,
    /// so the median of single dispatches was rounded to a multiple of ten, and a ratio of two
    /// of them could move by a quarter between runs. Tails are taken one dispatch at a time.
    func sampleDispatch(_ store: Store<LoginState, LoginAction>, count: Int, perSample: Int = 1) -> [Double] {
        let actions = Self.loginActions
        let overhead = Stopwatch.overhead
        var samples: [Double] = []
        samples.reserveCapacity(count / perSample)
        var index = 0
        for _ in 0..<(count / perSample) {
            let start = Stopwatch.now()
            for _ in 0..<perSample {
                store.send(actions[index & 63])
                index += 1
            }
            samples.append(max(0, Double(Stopwatch.now() - start) - overhead) / Double(perSample))
        }
        return samples
    }

    /// Dispatches a median is taken over at once (see ``sampleDispatch(_:count:perSample:)``).
    static let dispatchRun = 16

    /// Dispatches in a row before the recorder is let catch up (untimed): it works through
    /// them while they come, and its queue (16,384 steps) never fills, which would time the
    /// wait for room instead of the hand-off.
    static let dispatchBurst = 4_096

    /// The median of `store`'s dispatches over runs, and the 99th percentile of single ones,
    /// each from `count` dispatches, in bursts after each of which `recorder` is flushed.
    func measureDispatch(of store: Store<LoginState, LoginAction>, recorder: Recorder<LoginState, LoginAction>? = nil, count: Int) -> (
        p50: Double, p99: Double
    ) {
        var runs: [Double] = []
        var singles: [Double] = []
        for _ in 0..<max(1, count / Self.dispatchBurst) {
            runs += sampleDispatch(store, count: Self.dispatchBurst, perSample: Self.dispatchRun)
            recorder?.flush()
            singles += sampleDispatch(store, count: Self.dispatchBurst)
            recorder?.flush()
        }
        return (Percentiles(runs).p50, Percentiles(singles).p99)
    }

    func loginStore(middleware: [any StoreMiddleware<LoginState, LoginAction>] = []) -> Store<LoginState, LoginAction> {
        let backend = FakeBackend(seed: 1, clock: SimulatedClock(start: Date()))
        return Store(initialState: LoginState(), reducer: LoginFeature(backend: backend), middleware: middleware, execution: .manual)
    }

    func measureDispatch(into result: inout BenchmarkResult) throws {
        let count = smallSteps
        // The first store of the run warms the processor up, untimed: measured cold, the plain
        // dispatch's median came out half as slow again in one run of three.
        _ = sampleDispatch(loginStore(), count: count / 4, perSample: Self.dispatchRun)
        let plain = measureDispatch(of: loginStore(), count: count)
        // A store whose state a view has read: Observation's registrar hears every step.
        let observedStore = loginStore()
        _ = observedStore.state
        let observed = measureDispatch(of: observedStore, count: count)
        let sink = try SQLiteSink(path: path("dispatch.rewind"))
        // The way an app records (docs/adoption.md, step 3): the store hands its recorder its reducer.
        let backend = FakeBackend(seed: 1, clock: SimulatedClock(start: Date()))
        let store = Store(
            initialState: LoginState(), reducer: LoginFeature(backend: backend), recordingTo: sink, session: session("dispatch"),
            execution: .manual)
        let recording = measureDispatch(of: store, recorder: store.recorder, count: count)
        store.recorder?.close()
        // A recorder without the reducer, among the middleware: what a view model records with.
        let explicit = Recorder<LoginState, LoginAction>(sink: sink, session: session("dispatch-explicit"))
        let explicitRecording = measureDispatch(of: loginStore(middleware: [explicit]), recorder: explicit, count: count)
        explicit.close()
        try sink.close()
        result.add("dispatch_plain_ns", plain.p50, "dispatch, no recording, p50 of runs (ns)")
        result.add("dispatch_recording_ns", recording.p50, "dispatch with recording, p50 of runs (ns)", baseline: "dispatch_plain_ns", atMost: 150)
        result.add("dispatch_recording_p99_ns", recording.p99, "dispatch with recording, p99 (ns)", baseline: "dispatch_plain_ns")
        result.add(
            "dispatch_recording_explicit_ns", explicitRecording.p50, "dispatch with a recorder without the reducer, p50 of runs (ns)",
            baseline: "dispatch_plain_ns")
        result.add("dispatch_observed_ns", observed.p50, "dispatch, state observed through Observation, p50 of runs (ns)", baseline: "dispatch_plain_ns")
        result.add("clock_read_ns", measureClockRead(), "one read of the stamp each recorded step takes (ns)", baseline: "dispatch_plain_ns")
    }

    /// What one stamp of a recorded step costs: a read of the processor's counter where the
    /// system keeps time with it, else of the monotonic clock (`CStepTicks`). The median of
    /// five loops of a million reads (one read is below the stopwatch's resolution).
    func measureClockRead() -> Double {
        let reads = quick ? 10_000 : 1_000_000
        let counter = rewind_step_counter_is_trusted() != 0
        var loops: [Double] = []
        for _ in 0..<5 {
            var sum: UInt64 = 0
            let seconds = Stopwatch.seconds {
                for _ in 0..<reads { sum &+= counter ? rewind_step_counter() : rewind_step_monotonic_nanoseconds() }
            }
            // Used, so that the compiler keeps every read.
            withExtendedLifetime(sum) {}
            loops.append(seconds * 1e9 / Double(reads))
        }
        return median(loops)
    }
}
