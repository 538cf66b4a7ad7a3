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
///   stream and loads the session as report.js does (``LivePageWatcher``): when each step was
///   announced, and when the page could draw it. Target: p99 at most 100 ms.
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
    }

    private func measureLiveLatency(inspector: BenchInspector, into result: inout BenchmarkResult) async throws {
        let connected = DispatchSemaphore(value: 0)
        let watcher = LivePageWatcher(port: inspector.port)
        let steps = liveSteps
        let watching = watcher.start(steps: steps, seconds: Double(steps / liveRate) + 60, connected: connected)
        guard connected.wait(timeout: .now() + 30) == .success else {
            // The watcher's own error says why, at its deadline at the latest.
            _ = try await watching.value
            throw BenchmarkError("the page could not follow rewind live")
        }
        let backend = FakeBackend(seed: 1, clock: SimulatedClock(start: Date()))
        let store = Store(
            initialState: LoginState(), reducer: LoginFeature(backend: backend), recordingTo: try SQLiteSink(path: path("live-latency.rewind")),
            session: session("latency"), live: .inspector(inspector.url), execution: .manual)
        // One action each millisecond, each sent when its time comes, the time it was sent kept.
        var sent: [UInt64] = []
        sent.reserveCapacity(steps)
        let start = DispatchTime.now().uptimeNanoseconds
        let interval = UInt64(1e9) / UInt64(liveRate)
        for index in 0..<steps {
            let due = start + UInt64(index) * interval
            while DispatchTime.now().uptimeNanoseconds < due {}
            sent.append(DispatchTime.now().uptimeNanoseconds)
            store.send(Self.loginActions[index & 63])
        }
        let timings = try await watching.value
        store.recorder?.close()
        func milliseconds(_ times: [UInt64]) -> Percentiles {
            Percentiles(zip(times, sent).map { Double($0 &- $1) / 1e6 })
        }
        let announced = milliseconds(timings.announced), shown = milliseconds(timings.shown)
        result.add("live_page_p50_ms", shown.p50, "dispatch to page, \(liveRate) actions/s, \(steps) steps, p50 (ms)")
        result.add("live_page_p99_ms", shown.p99, "dispatch to page, p99 (ms)", atMost: 100)
        result.add("live_event_p50_ms", announced.p50, "dispatch to the page's event, p50 (ms)", baseline: "before the page's load")
        result.add("live_event_p99_ms", announced.p99, "dispatch to the page's event, p99 (ms)", baseline: "before the page's load")
    }
}

/// `rewind live` on a free loopback port, with a log of its own.
private final class BenchInspector {
    let url: URL
    let port: UInt16
    private let process = Process()

    /// Nil when this `rewind` has no inspector (built without the trait).
    init?(rewind: String, log: String) throws {
        process.executableURL = URL(fileURLWithPath: rewind)
        process.arguments = ["live", "--listen", "127.0.0.1:0", "--log", log]
        let output = Pipe()
        process.standardError = output
        // Its first line names the port: "rewind live: open http://127.0.0.1:PORT (apps connect …".
        let text = try ChildProcess.firstLine(of: process, output: output)
        guard let start = text.range(of: "open http://127.0.0.1:"),
            let port = UInt16(text[start.upperBound...].prefix { $0.isNumber })
        else {
            process.waitUntilExit()
            if process.terminationStatus == 69 { return nil }
            throw BenchmarkError("rewind live did not start: \(text)")
        }
        self.port = port
        url = URL(string: "http://127.0.0.1:\(port)")!
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
