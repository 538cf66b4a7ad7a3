import Foundation
import PhotoApp
import RewindCore
import RewindLog

extension BenchmarkSuite {
    /// Login actions that each change the state, made before timing starts.
    static let loginActions: [LoginAction] = (0..<64).map { .didUpdateUsername("user\($0)") }

    /// Dispatches `count` login actions one by one and returns each one's nanoseconds.
    func sampleDispatch(_ store: Store<LoginState, LoginAction>, count: Int) -> [Double] {
        var samples = [Double](repeating: 0, count: count)
        let actions = Self.loginActions
        let overhead = Stopwatch.overhead
        for index in 0..<count {
            let action = actions[index & 63]
            let start = Stopwatch.now()
            store.send(action)
            samples[index] = max(0, Double(Stopwatch.now() - start) - overhead)
        }
        return samples
    }

    func loginStore(middleware: [any StoreMiddleware<LoginState, LoginAction>] = []) -> Store<LoginState, LoginAction> {
        let backend = FakeBackend(seed: 1, clock: SimulatedClock(start: Date()))
        return Store(initialState: LoginState(), reducer: LoginFeature(backend: backend), middleware: middleware, execution: .manual)
    }

    func measureDispatch(into result: inout BenchmarkResult) throws {
        let count = smallSteps
        let plain = Percentiles(sampleDispatch(loginStore(), count: count))
        // A store whose state a view has read: Observation's registrar hears every step.
        let observedStore = loginStore()
        _ = observedStore.state
        let observed = Percentiles(sampleDispatch(observedStore, count: count))
        let sink = try SQLiteSink(path: path("dispatch.rewind"))
        let recorder = Recorder<LoginState, LoginAction>(sink: sink, session: session("dispatch"))
        let recording = Percentiles(sampleDispatch(loginStore(middleware: [recorder]), count: count))
        recorder.close()
        let backend = FakeBackend(seed: 1, clock: SimulatedClock(start: Date()))
        let replicating = Recorder(sink: sink, session: session("dispatch-replica"), replicating: LoginFeature(backend: backend))
        let replicated = Percentiles(
            sampleDispatch(
                Store(initialState: LoginState(), reducer: LoginFeature(backend: backend), middleware: [replicating], execution: .manual), count: count))
        replicating.close()
        try sink.close()
        result.add("dispatch_recording_replica_ns", replicated.p50, "dispatch with a replicating recorder, p50 (ns)", baseline: "dispatch_plain_ns")
        result.add("dispatch_plain_ns", plain.p50, "dispatch, no recording, p50 (ns)")
        result.add("dispatch_recording_ns", recording.p50, "dispatch with recording, p50 (ns)", baseline: "dispatch_plain_ns", atMost: 150)
        result.add("dispatch_recording_p99_ns", recording.p99, "dispatch with recording, p99 (ns)", baseline: "dispatch_plain_ns")
        result.add("dispatch_observed_ns", observed.p50, "dispatch, state observed through Observation, p50 (ns)", baseline: "dispatch_plain_ns")
        result.add("clock_read_ns", measureClockRead(), "one read of the clock that times each step (ns)", baseline: "dispatch_plain_ns")
    }

    /// What one read of the system's wall clock costs: the part of the hand-off that a step's
    /// time takes, which bounds how close recording can come to plain dispatch. The median of
    /// five loops of a million reads (one read is below the stopwatch's resolution).
    func measureClockRead() -> Double {
        let reads = quick ? 10_000 : 1_000_000
        var loops: [Double] = []
        for _ in 0..<5 {
            let seconds = Stopwatch.seconds {
                // An opaque C call: the compiler cannot drop it.
                var time = timespec()
                for _ in 0..<reads { clock_gettime(CLOCK_REALTIME, &time) }
            }
            loops.append(seconds * 1e9 / Double(reads))
        }
        return median(loops)
    }
}
