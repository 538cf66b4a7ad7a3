import Foundation
import PhotoApp
import RewindCore
import RewindJSON
import RewindLog

/// `rewind bench`: our code and its baselines on the same data, in one run.
///
/// Baselines: the same store without recording, a naive recorder (full state as JSON per step,
/// written synchronously), and raw batched SQLite inserts of the same bytes. Each throughput
/// is the median of several repetitions; percentiles come from per-operation samples.
@MainActor
public struct BenchmarkSuite {
    /// Smaller sizes for a smoke run.
    public var quick: Bool
    let folder: URL
    /// Whether the run's logs and pages stay in `folder` after it, to look at or profile.
    let keepsFiles: Bool
    var repetitions: Int { quick ? 1 : 3 }
    var smallSteps: Int { quick ? 2_000 : 200_000 }
    var largeSteps: Int { quick ? 100 : 10_000 }
    var photoCount: Int { quick ? 100 : 1_000 }
    /// Ten times `photoCount`: how the cost of a step grows with the state.
    var xlargePhotoCount: Int { photoCount * 10 }

    /// A run in a fresh temporary folder, removed after it; or in `keepingFilesIn`, which must
    /// be missing or empty (a log left there would gain the next run's sessions), kept after it.
    public init(quick: Bool, keepingFilesIn kept: String? = nil) throws {
        self.quick = quick
        keepsFiles = kept != nil
        folder =
            kept.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("rewind-bench-\(UUID().uuidString)")
        if let kept, let names = try? FileManager.default.contentsOfDirectory(atPath: kept), !names.isEmpty {
            throw BenchmarkError("\(kept) is not empty: keep the files of a run in a new folder")
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// The groups of figures, in the order they run.
    public nonisolated static let groups = [
        "dispatch", "small", "large", "raw", "reading", "diff", "report", "store", "live", "sessions", "collector", "write-test",
    ]

    /// Runs the benchmarks of `groups` (every group when nil); `progress` hears what is being
    /// measured.
    public func run(groups: Set<String>? = nil, progress: (String) -> Void) async throws -> BenchmarkResult {
        defer { if !keepsFiles { try? FileManager.default.removeItem(at: folder) } }
        var result = BenchmarkResult()
        func wanted(_ group: String) -> Bool { groups?.contains(group) ?? true }
        if wanted("dispatch") {
            progress("dispatch without and with recording (login state)")
            try measureDispatch(into: &result)
            progress("dispatch at a human pace (login state)")
            try measureLoginIdle(into: &result)
            try measureLoginAsleep(into: &result)
            progress("dispatch and bytes written, keeping the last \(Self.retainedSteps) steps of a session")
            try measureRetention(into: &result)
        }
        if wanted("small") {
            progress("sustained recording to disk (login state)")
            try measureSmallRecording(into: &result)
            progress("instructions per recorded login step, under callgrind")
            try measureInstructions(into: &result)
        }
        if wanted("large") {
            progress("sustained recording to disk (\(photoCount)-photo state)")
            try measureLargeRecording(into: &result)
            progress("dispatch and replay on the \(photoCount)-photo state")
            try measureLargeDispatch(into: &result)
            progress("dispatch at a human pace on the \(photoCount)- and \(xlargePhotoCount)-photo states")
            try measureLargeIdle(into: &result)
            progress("instructions of a dispatch at a human pace, under callgrind")
            try measureIdleInstructions(into: &result)
            try measureLargeReplay(into: &result)
            result.add(
                "storage_ratio_large", (result["naive_bytes_per_step_large"] ?? 0) / max(1, result["bytes_per_step_large"] ?? 1),
                "naive bytes over ours per step, \(photoCount) photos (×)", atLeast: 10)
        }
        if wanted("raw") {
            progress("raw SQLite inserts of the same bytes")
            try measureRawSQLite(into: &result)
        }
        if wanted("reading") {
            progress("seeking, replaying and paging a \(seekSteps)-step log")
            try measureReading(into: &result)
        }
        if wanted("diff") {
            progress("diffing two \(photoCount)-photo states")
            try measureDiff(into: &result)
        }
        if wanted("report") {
            progress("a \(reportSteps)-step report, and opening it in headless Chromium")
            try await measureReport(into: &result, progress: progress)
        }
        if wanted("store") {
            try measureStore(into: &result, progress: progress)
        }
        if wanted("live") {
            try await measureLive(into: &result, progress: progress)
        }
        if wanted("sessions") {
            try await measureSessionsPage(into: &result, progress: progress)
        }
        if wanted("collector") {
            try await measureCollector(into: &result, progress: progress)
        }
        if wanted("write-test") {
            progress("write-test of a \(writeTestSteps)-step app session, beside replaying it")
            try await measureWriteTest(into: &result)
        }
        addRatios(to: &result)
        return result
    }

    /// The second round's targets are ratios to baselines of the same run (DESIGN section 7):
    /// each is added when both of its figures were measured.
    func addRatios(to result: inout BenchmarkResult) {
        let ratios: [(key: String, over: String, under: String, label: String, atMost: Double?, atLeast: Double?)] = [
            ("ratio_dispatch_recording", "dispatch_recording_ns", "dispatch_plain_ns", "dispatch with recording / without, login", 2, nil),
            ("ratio_dispatch_recording_large", "dispatch_recording_large_ns", "dispatch_plain_large_ns", "dispatch with recording / without, photos", 3, nil),
            ("ratio_record_small_raw", "record_small_steps_per_s", "raw_sqlite_rows_per_s", "recording / raw SQLite inserts, login", nil, 0.5),
            ("ratio_record_small_naive", "record_small_steps_per_s", "naive_record_small_steps_per_s", "recording / naive recorder, login", nil, 2),
            ("ratio_record_large_naive", "record_large_steps_per_s", "naive_record_large_steps_per_s", "recording / naive recorder, photos", nil, 100),
            ("ratio_replay_raw", "replay_steps_per_s", "raw_sqlite_rows_per_s", "replay / raw SQLite inserts, login", nil, 1),
            // Per-step cost at ten times the photos over that at `photoCount`: rates, inverted.
            (
                "ratio_record_xlarge_large", "record_large_steps_per_s", "record_xlarge_steps_per_s",
                "recording cost per step, 10× the photos / 1×", 3, nil
            ),
            (
                "ratio_replay_xlarge_large", "replay_large_steps_per_s", "replay_xlarge_steps_per_s",
                "replay-verify cost per step, 10× the photos / 1×", 3, nil
            ),
            ("ratio_bytes_small_naive", "bytes_per_step_small", "naive_bytes_per_step_small", "stored bytes / naive bytes per step, login", 1, nil),
            (
                "ratio_instructions_small_naive", "instructions_per_step_small", "naive_instructions_per_step_small",
                "instructions per step / naive, login", 0.5, nil
            ),
        ]
        for ratio in ratios {
            guard let over = result[ratio.over], let under = result[ratio.under], under > 0 else { continue }
            result.add(ratio.key, over / under, "ratio: \(ratio.label) (×)", atMost: ratio.atMost, atLeast: ratio.atLeast)
        }
    }

    func path(_ name: String) -> String {
        folder.appendingPathComponent(name).path
    }

    func fileSize(_ path: String) -> Double {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return Double(attributes?[.size] as? Int ?? 0)
    }

    func session(_ name: String) -> SessionDescriptor {
        SessionDescriptor(name: name, flow: name)
    }
}
