import Foundation
import PhotoApp
import RewindCore
import RewindJSON
import RewindLog
import RewindReplay

/// Records login steps as `rewind bench`'s sustained recording does, with Rewind's recorder
/// or the naive one, for counting the instructions a step costs under callgrind; and, for
/// profiling, records and replays steps of a large photo state (`large`).
///
/// `rewind` itself cannot run under this machine's valgrind (3.19), which crashes in the
/// asynchronous main's idle loop; the probe is a plain program. Each count is taken at two
/// numbers of steps and subtracted, so that starting the process cancels out.
@MainActor
public enum RecordingProbe {
    /// Records `steps` renames on a state of `photos` photos into a new file in `directory`,
    /// the way an app records (the store hands its recorder its reducer), or with a recorder
    /// without the reducer when `explicit`; then, when `replaying`, replays them.
    public static func recordLarge(steps: Int, photos: Int, explicit: Bool, replaying: Bool, in directory: String) throws {
        let path = directory + "/large.rewind"
        let sink = try SQLiteSink(path: path)
        let session = SessionDescriptor(name: "large", flow: BenchmarkSuite.largeFlow.name)
        let state = LargeStateFeature.state(photos: photos)
        let store =
            explicit
            ? Store(
                initialState: state, reducer: LargeStateFeature(),
                middleware: [Recorder<PhotosState, LargeStateFeature.Action>(sink: sink, session: session)], execution: .manual)
            : Store(initialState: state, reducer: LargeStateFeature(), recordingTo: sink, session: session, execution: .manual)
        for action in LargeStateFeature.actions(steps, photos: photos) { store.send(action) }
        store.recorder?.close()
        try sink.close()
        guard replaying else { return }
        let replays = try Replayer(registry: ReplayRegistry([BenchmarkSuite.largeFlow])).replay(path: path)
        guard replays.first?.passed == true else { throw BenchmarkError("the large recording did not replay clean") }
    }

    /// Dispatches `steps` renames on a state of `photos` photos recorded the way an app records,
    /// each after the recorder caught up (flushed, untimed), as an app at a human pace does;
    /// without a recorder when `plain`. Each dispatch goes through ``idleDispatch(_:_:)``, which
    /// callgrind's `--toggle-collect` counts alone.
    public static func dispatchIdle(steps: Int, photos: Int, plain: Bool, in directory: String) throws {
        let sink = try SQLiteSink(path: directory + "/idle.rewind")
        let state = LargeStateFeature.state(photos: photos)
        let store =
            plain
            ? Store(initialState: state, reducer: LargeStateFeature(), execution: .manual)
            : Store(
                initialState: state, reducer: LargeStateFeature(), recordingTo: sink,
                session: SessionDescriptor(name: "idle", flow: BenchmarkSuite.largeFlow.name), execution: .manual)
        for action in LargeStateFeature.actions(steps, photos: photos) {
            store.recorder?.flush()
            idleDispatch(store, action)
        }
        store.recorder?.close()
        try sink.close()
    }

    /// One dispatch, apart, for callgrind to count (`--toggle-collect=*idleDispatch*`).
    @inline(never)
    static func idleDispatch(_ store: Store<PhotosState, LargeStateFeature.Action>, _ action: LargeStateFeature.Action) {
        store.send(action)
    }

    /// Dispatches `steps` login actions on a store recorded the way an app records (the store
    /// hands its recorder its reducer), or without recording when `plain`. Each dispatch goes
    /// through ``countedDispatch(_:_:)``, which callgrind's `--toggle-collect` counts alone: the
    /// dispatching thread's part. The recorder is flushed between bursts, outside it, as
    /// `rewind bench` times them, so that no count holds a wait for room in the queue.
    public static func dispatchCounted(steps: Int, plain: Bool, in directory: String) throws {
        let backend = FakeBackend(seed: 1, clock: SimulatedClock(start: Date(timeIntervalSince1970: 0)))
        let sink = try SQLiteSink(path: directory + "/counted.rewind")
        let store =
            plain
            ? Store(initialState: LoginState(), reducer: LoginFeature(backend: backend), execution: .manual)
            : Store(
                initialState: LoginState(), reducer: LoginFeature(backend: backend), recordingTo: sink,
                session: SessionDescriptor(name: "counted", flow: "login"), execution: .manual)
        for index in 0..<steps {
            countedDispatch(store, BenchmarkSuite.loginActions[index & 63])
            if index % BenchmarkSuite.dispatchBurst == BenchmarkSuite.dispatchBurst - 1 { store.recorder?.flush() }
        }
        store.recorder?.close()
        try sink.close()
    }

    /// One login dispatch, apart, for callgrind to count (`--toggle-collect=*countedDispatch*`).
    @inline(never)
    static func countedDispatch(_ store: Store<LoginState, LoginAction>, _ action: LoginAction) {
        store.send(action)
    }

    /// Diffs two states of `photos` photos, encoded apart, that differ in one title, `times`
    /// times, as `rewind bench`'s `diff_large_ms` times it; callgrind counts ``JSONDiff`` alone
    /// (`--toggle-collect=*JSONDiff*changes*`).
    public static func diffLarge(times: Int, photos: Int) throws {
        let (old, new) = try LargeStateFeature.statesOneTitleApart(photos: photos)
        for _ in 0..<times {
            guard JSONDiff.changes(from: old, to: new).count == 1 else { throw BenchmarkError("the diff did not find the one change") }
        }
    }

    /// Dispatches `steps` login actions on a store without recording: beside `record`, what
    /// the hand-off costs the dispatching thread (callgrind's thread 1).
    public static func dispatch(steps: Int, recordingIn directory: String? = nil) throws {
        let backend = FakeBackend(seed: 1, clock: SimulatedClock(start: Date(timeIntervalSince1970: 0)))
        let sink = try directory.map { try SQLiteSink(path: $0 + "/probe.rewind") }
        let recorder = sink.map { Recorder<LoginState, LoginAction>(sink: $0, session: SessionDescriptor(name: "probe", flow: "login")) }
        let store = Store(
            initialState: LoginState(), reducer: LoginFeature(backend: backend), middleware: recorder.map { [$0] } ?? [], execution: .manual)
        for index in 0..<steps {
            store.send(BenchmarkSuite.loginActions[index & 63])
            // In bursts, as `rewind bench` times them: the recorder's queue never fills.
            if index % BenchmarkSuite.dispatchBurst == BenchmarkSuite.dispatchBurst - 1 { recorder?.flush() }
        }
        recorder?.close()
        try sink?.close()
    }

    /// Records `steps` login steps into a new file in `directory`, then replays them: beside
    /// `record`, what replaying a login step costs.
    public static func recordAndReplay(steps: Int, in directory: String) throws {
        try record(steps: steps, naive: false, in: directory)
        let replays = try Replayer(registry: SeedFlows.registry).replay(path: directory + "/probe.rewind")
        guard replays.first?.passed == true else { throw BenchmarkError("the login recording did not replay clean") }
    }

    /// Records `steps` login steps into a new file in `directory` the way an app records: the
    /// store hands its recorder its reducer.
    public static func recordThroughStore(steps: Int, in directory: String) throws {
        let backend = FakeBackend(seed: 1, clock: SimulatedClock(start: Date(timeIntervalSince1970: 0)))
        let sink = try SQLiteSink(path: directory + "/probe.rewind")
        let store = Store(
            initialState: LoginState(), reducer: LoginFeature(backend: backend), recordingTo: sink,
            session: SessionDescriptor(name: "probe", flow: "login"), execution: .manual)
        for index in 0..<steps { store.send(BenchmarkSuite.loginActions[index & 63]) }
        store.recorder?.close()
        try sink.close()
    }

    /// Records `steps` login steps into a new file in `directory`, with a recorder without the
    /// reducer or the naive one.
    public static func record(steps: Int, naive: Bool, in directory: String) throws {
        let backend = FakeBackend(seed: 1, clock: SimulatedClock(start: Date(timeIntervalSince1970: 0)))
        let reducer = LoginFeature(backend: backend)
        let actions = (0..<steps).map { BenchmarkSuite.loginActions[$0 & 63] }
        if naive {
            let recorder = try NaiveRecorder<LoginState, LoginAction>(path: directory + "/probe.jsonl")
            let store = Store(initialState: LoginState(), reducer: reducer, middleware: [recorder], execution: .manual)
            for action in actions { store.send(action) }
            try recorder.close()
        } else {
            let sink = try SQLiteSink(path: directory + "/probe.rewind")
            let recorder = Recorder<LoginState, LoginAction>(sink: sink, session: SessionDescriptor(name: "probe", flow: "login"))
            let store = Store(initialState: LoginState(), reducer: reducer, middleware: [recorder], execution: .manual)
            for action in actions { store.send(action) }
            recorder.close()
            try sink.close()
        }
    }
}
