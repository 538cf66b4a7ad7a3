import Foundation
import PhotoApp
import RewindCore
import RewindLog
import RewindUpload

extension BenchmarkSuite {
    /// The steps a flight recorder keeps in the bench: a fraction of what it records, so that
    /// blocks leave at almost every commit.
    static let retainedSteps = 1_000

    /// What keeping only the last ``retainedSteps`` steps costs (DESIGN section 15): login
    /// dispatch with recording into a log that trims against one that keeps everything, and
    /// the bytes each writes per step, in turn `repetitions` times.
    func measureRetention(into result: inout BenchmarkResult) throws {
        var whole: [Double] = [], retained: [Double] = []
        var wholeBytes: [Double] = [], retainedBytes: [Double] = []
        var flights: [Double] = []
        for repetition in 0..<repetitions {
            // In turn with the recorders it is compared with, so that the ratio compares runs
            // of the same minutes: measured after them, it moved from 1.2 to 2.5 between two
            // runs as the machine did.
            flights.append(try measureFlightDispatch(repetition))
            for retention in [LogRetention.everything, .lastSteps(Self.retainedSteps)] {
                let sink = try SQLiteSink(path: path("retention-\(repetition)-\(retention.keepsEverything).rewind"), retention: retention)
                let recorder = Recorder<LoginState, LoginAction>(sink: sink, session: session("dispatch"))
                let store = loginStore(middleware: [recorder])
                let dispatch = measureDispatch(of: store, recorder: recorder, count: smallSteps).p50
                // Bytes written by every thread of the process while the same number of steps
                // again are recorded and committed, a commit every block.
                let before = Self.bytesWritten()
                let sent = Self.dispatchBurst * max(1, smallSteps / Self.dispatchBurst)
                for _ in 0..<(sent / 256) {
                    _ = sampleDispatch(store, count: 256)
                    recorder.flush()
                }
                let written = Self.bytesWritten().map { after in before.map { Double(after - $0) / Double(sent / 256 * 256) } } ?? nil
                recorder.close()
                try sink.close()
                if retention.keepsEverything {
                    whole.append(dispatch)
                    written.map { wholeBytes.append($0) }
                } else {
                    retained.append(dispatch)
                    written.map { retainedBytes.append($0) }
                }
            }
        }
        let flight = median(flights)
        let (alone, trimming) = (median(whole), median(retained))
        result.add("dispatch_recording_retained_ns", trimming, "dispatch with recording, keeping the last \(Self.retainedSteps) steps, p50 of runs (ns)")
        result.add("dispatch_recording_whole_ns", alone, "dispatch with recording, keeping every step, p50 of runs (ns)", baseline: "no retention")
        result.add("ratio_dispatch_retained", trimming / alone, "ratio: dispatch keeping the last \(Self.retainedSteps) steps / keeping all (×)", atMost: 1.1)
        result.add(
            "dispatch_flight_ns", flight,
            "dispatch with a flight recorder (the same retention, a state and an action trigger that never fire), p50 of runs (ns)")
        result.add(
            "ratio_dispatch_flight", flight / trimming, "ratio: dispatch with a flight recorder / with recording keeping the same steps (×)",
            atMost: 2)
        if let plain = result["dispatch_plain_ns"] {
            result.add("ratio_dispatch_flight_plain", flight / plain, "ratio: dispatch with a flight recorder / without recording (×)")
        }
        guard !wholeBytes.isEmpty, !retainedBytes.isEmpty else { return }
        result.add(
            "written_bytes_per_step_retained", median(retainedBytes),
            "bytes written per login step, keeping the last \(Self.retainedSteps) steps, a commit a block (B)")
        result.add("written_bytes_per_step_whole", median(wholeBytes), "bytes written per login step, keeping every step (B)", baseline: "no retention")
        result.add(
            "ratio_written_bytes_retained", median(retainedBytes) / median(wholeBytes),
            "ratio: bytes written per step keeping the last \(Self.retainedSteps) steps / keeping all (×)")
    }

    /// Login dispatch through a ``FlightRecorder``: the recorder's fast path, then its two
    /// triggers asked at each step. Its uploads go to a log beside the bench's, and none fires.
    /// The p50 of one run.
    private func measureFlightDispatch(_ repetition: Int) throws -> Double {
        let flight = try FlightRecorder<LoginState, LoginAction>(
            log: path("flight-\(repetition).rewind"), retention: .lastSteps(Self.retainedSteps), session: session("dispatch"),
            triggers: [.state("failed") { $0.status == .failed }, .action("signup") { $0 == .didTapSignup }],
            uploadingTo: try LogFileStore(writingTo: path("flight-\(repetition)-collected.rewind")))
        let store = loginStore(middleware: flight.middleware)
        defer { flight.recorder.close() }
        return measureDispatch(of: store, recorder: flight.recorder, count: smallSteps).p50
    }

    /// The bytes this process has handed to `write` and its kin so far (`wchar` of
    /// `/proc/self/io`), where the system tells; nil elsewhere.
    static func bytesWritten() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix("wchar:") }
        return line.flatMap { Int($0.dropFirst("wchar:".count).trimmingCharacters(in: .whitespaces)) }
    }
}
