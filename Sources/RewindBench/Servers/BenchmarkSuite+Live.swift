import Dispatch
import Foundation
import PhotoApp
import RewindCore
import RewindLive
import RewindLog

/// Live time travel's figures (DESIGN section 17), against `rewind live` started from this
/// very `rewind` on loopback:
///
/// - the cost of a dispatch with the live connection, beside the same store recording
///   without one and a store that does not record (DESIGN section 7's target is on the
///   latter), in a burst and at a human pace;
/// - dispatch to page: the app sends 1,000 actions a second, and a page follows the event
///   stream and loads what is new of the session as report.js does (``LivePageWatcher``): when
///   each step was announced, and when the page could draw it; for the login store and for a
///   list that grows to 10,000 items over 30,000 steps. Targets: p99 at most 100 ms, and the
///   last fifth's p99 within 1.5× the first's.
///
/// A `rewind` built without the `Servers` trait has no inspector: the figures are left out
/// with a note.
extension BenchmarkSuite {
    var liveRate: Int { 1_000 }
    var liveSteps: Int { quick ? 500 : 3_000 }

    func measureLive(into result: inout BenchmarkResult, progress: (String) -> Void) async throws {
        let rewind = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        guard let inspector = try BenchInspector(rewind: rewind, log: path("live-inspector.rewind")) else {
            result.notes.append("live: this rewind was built without the Servers trait (it has no rewind live); figures left out")
            return
        }
        defer { inspector.stop() }

        progress("dispatch with a live inspector connected, beside recording alone and no recording")
        let backend = FakeBackend(seed: 1, clock: SimulatedClock(start: Date()))
        func liveStore(_ name: String) throws -> Store<LoginState, LoginAction> {
            Store(
                initialState: LoginState(), reducer: LoginFeature(backend: backend), recordingTo: try SQLiteSink(path: path("live-\(name).rewind")),
                session: session(name), live: .inspector(inspector.url), execution: .manual)
        }
        func recordingStore(_ name: String) throws -> Store<LoginState, LoginAction> {
            Store(
                initialState: LoginState(), reducer: LoginFeature(backend: backend), recordingTo: try SQLiteSink(path: path("live-\(name).rewind")),
                session: session(name), execution: .manual)
        }
        var live: [Double] = [], recording: [Double] = [], plain: [Double] = []
        for repetition in 0..<repetitions {
            let store = try liveStore("burst-\(repetition)")
            live.append(measureDispatch(of: store, recorder: store.recorder, count: smallSteps).p50)
            store.recorder?.close()
            let alone = try recordingStore("alone-\(repetition)")
            recording.append(measureDispatch(of: alone, recorder: alone.recorder, count: smallSteps).p50)
            alone.recorder?.close()
            plain.append(measureDispatch(of: loginStore(), count: smallSteps).p50)
        }
        let (liveNs, recordingNs, plainNs) = (median(live), median(recording), median(plain))
        result.add("dispatch_live_ns", liveNs, "dispatch with recording and a live inspector connected, login, p50 of runs (ns)")
        result.add("dispatch_live_recording_ns", recordingNs, "dispatch with recording, no inspector, login, p50 of runs (ns)", baseline: "no inspector")
        result.add("dispatch_live_plain_ns", plainNs, "dispatch without recording, login, p50 of runs (ns)", baseline: "no recording")
        result.add("ratio_dispatch_live_recording", liveNs / max(1, recordingNs), "ratio: dispatch with a live inspector / recording alone (×)", atMost: 1.1)
        result.add("ratio_dispatch_live", liveNs / max(1, plainNs), "ratio: dispatch with a live inspector / without recording (×)", atMost: 2)

        // At a human pace: each dispatch after its step is written and the connection has had
        // 12 ms (more than its 10 ms look) to send it, the app's real case.
        let actions = (0..<(quick ? 100 : 1_000)).map { Self.loginActions[$0 & 63] }
        let idleLive = try liveStore("idle")
        let paced = sampleIdle(idleLive, actions) { _ in
            idleLive.recorder?.flush()
            Thread.sleep(forTimeInterval: 0.012)
        }
        idleLive.recorder?.close()
        let idleAlone = try recordingStore("idle-alone")
        let pacedAlone = sampleIdle(idleAlone, actions) { _ in
            idleAlone.recorder?.flush()
            Thread.sleep(forTimeInterval: 0.012)
        }
        idleAlone.recorder?.close()
        result.add("dispatch_live_idle_ns", paced.p50, "dispatch with a live inspector, login, 12 ms apart, p50 (ns)")
        result.add(
            "dispatch_live_recording_idle_ns", pacedAlone.p50, "dispatch with recording, no inspector, 12 ms apart, p50 (ns)",
            baseline: "no inspector")
        result.add(
            "ratio_dispatch_live_idle", paced.p50 / max(1, pacedAlone.p50), "ratio: the same at a human pace, live / recording alone, p50 (×)",
            atMost: 1.5)

        progress("dispatch to page: \(liveSteps) actions at \(liveRate) a second, followed as a live page does")
        try await measureLiveLatency(inspector: inspector, into: &result)
        progress("the live page itself in headless Chromium, following \(liveGrowingSteps) steps of a growing list")
        try await measureLiveBrowser(rewind: rewind, into: &result)
    }

    /// Steps of the growing list's run: 30 s at 1,000 actions a second.
    var liveGrowingSteps: Int { quick ? 3_000 : 30_000 }

    /// Dispatch to page for the login store (`live_page_*`) and for the growing list
    /// (`live_growing_*`), each with how the last fifth of its steps compares with the first:
    /// a page that loaded the whole session at each step grew from 154 to 599 ms at 10,000.
    private func measureLiveLatency(inspector: BenchInspector, into result: inout BenchmarkResult) async throws {
        let backend = FakeBackend(seed: 1, clock: SimulatedClock(start: Date()))
        let login = try await followLive(inspector: inspector, steps: liveSteps, name: "latency") { sink, session, link in
            let store = Store(
                initialState: LoginState(), reducer: LoginFeature(backend: backend), recordingTo: sink, session: session, live: link, execution: .manual)
            return ({ store.send(Self.loginActions[$0 & 63]) }, { store.recorder?.close() })
        }
        login.add(as: "live_page", "login", rate: liveRate, into: &result)
        result.add("live_event_p50_ms", login.announced.p50, "dispatch to the page's event, p50 (ms)", baseline: "before the page's load")
        result.add("live_event_p99_ms", login.announced.p99, "dispatch to the page's event, p99 (ms)", baseline: "before the page's load")
        let growing = try await followLive(inspector: inspector, steps: liveGrowingSteps, name: "growing") { sink, session, link in
            let store = Store(initialState: GrowingList.State(), reducer: GrowingList(), recordingTo: sink, session: session, live: link, execution: .manual)
            return ({ store.send(GrowingList.action($0)) }, { store.recorder?.close() })
        }
        growing.add(as: "live_growing", "a list growing to \(liveGrowingSteps / 3) items", rate: liveRate, into: &result)
    }

    /// What a page following one session saw, in milliseconds from each step's dispatch.
    struct LiveFollowing {
        var steps: Int
        var announced: Percentiles
        var shown: Percentiles
        var firstFifth: Percentiles
        var lastFifth: Percentiles
        var bytes: Int
        var loads: Int

        func add(as prefix: String, _ what: String, rate: Int, into result: inout BenchmarkResult) {
            result.add("\(prefix)_p50_ms", shown.p50, "dispatch to page, \(what), \(rate) actions/s, \(steps) steps, p50 (ms)")
            result.add("\(prefix)_p99_ms", shown.p99, "dispatch to page, \(what), p99 (ms)", atMost: 100)
            result.add("\(prefix)_first_fifth_p99_ms", firstFifth.p99, "the same, the first fifth of the steps, p99 (ms)", baseline: "early in the session")
            result.add("\(prefix)_last_fifth_p99_ms", lastFifth.p99, "the same, the last fifth, p99 (ms)")
            result.add(
                "ratio_\(prefix)_last_first", lastFifth.p99 / max(0.001, firstFifth.p99), "ratio: last fifth / first fifth, p99 (×)", atMost: 1.5)
            result.add("\(prefix)_bytes_per_step", Double(bytes) / Double(max(1, steps)), "bytes the page loaded per step, all loads (B)")
            result.add("\(prefix)_loads", Double(loads), "the page's loads of the session")
        }
    }

    /// Sends `steps` actions at ``liveRate`` a second into a store `make` builds, connected to
    /// `inspector`, while a page follows it as report.js does; `make` gives the send of step
    /// `index` and the store's close.
    private func followLive(
        inspector: BenchInspector, steps: Int, name: String,
        make: (SQLiteSink, SessionDescriptor, LiveInspectorLink) throws -> (send: (Int) -> Void, close: () -> Void)
    ) async throws -> LiveFollowing {
        let connected = DispatchSemaphore(value: 0)
        let watcher = LivePageWatcher(port: inspector.port)
        let descriptor = session(name)
        let watching = watcher.start(session: descriptor.id, steps: steps, seconds: Double(steps / liveRate) + 60, connected: connected)
        guard connected.wait(timeout: .now() + 30) == .success else {
            // The watcher's own error says why, at its deadline at the latest.
            _ = try await watching.value
            throw BenchmarkError("the page could not follow rewind live")
        }
        let (send, close) = try make(try SQLiteSink(path: path("live-\(name).rewind")), descriptor, .inspector(inspector.url))
        let sent = sendPaced(steps, send)
        let timings = try await watching.value
        close()
        func milliseconds(_ times: ArraySlice<UInt64>, _ sent: ArraySlice<UInt64>) -> Percentiles {
            Percentiles(zip(times, sent).map { Double($0 &- $1) / 1e6 })
        }
        let fifth = steps / 5
        return LiveFollowing(
            steps: steps, announced: milliseconds(timings.announced[...], sent[...]), shown: milliseconds(timings.shown[...], sent[...]),
            firstFifth: milliseconds(timings.shown.prefix(fifth), sent.prefix(fifth)),
            lastFifth: milliseconds(timings.shown.suffix(fifth), sent.suffix(fifth)), bytes: timings.bytes, loads: timings.loads)
    }

    /// Calls `send` with 0 to `steps - 1`, one at each tick of ``liveRate`` a second; the
    /// uptime in nanoseconds at which each was sent, which the latencies start from.
    ///
    /// It sleeps until each tick, as an app between its actions does: a spin would hold one
    /// of this machine's two cores from the recorder, the live link and `rewind live`, and
    /// measured stalls of up to 270 ms mid-run that an app does not cause. A late wake-up
    /// (tens of microseconds) delays a send, not its figure: the clock is read after it.
    func sendPaced(_ steps: Int, _ send: (Int) -> Void) -> [UInt64] {
        var sent: [UInt64] = []
        sent.reserveCapacity(steps)
        let start = DispatchTime.now().uptimeNanoseconds
        let interval = UInt64(1e9) / UInt64(liveRate)
        for index in 0..<steps {
            let due = start + UInt64(index) * interval
            let now = DispatchTime.now().uptimeNanoseconds
            if now < due { Thread.sleep(forTimeInterval: Double(due - now) / 1e9) }
            sent.append(DispatchTime.now().uptimeNanoseconds)
            send(index)
        }
        return sent
    }
}
