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
    var repetitions: Int { quick ? 1 : 3 }
    var smallSteps: Int { quick ? 2_000 : 200_000 }
    var largeSteps: Int { quick ? 100 : 10_000 }
    var photoCount: Int { quick ? 100 : 1_000 }

    public init(quick: Bool) throws {
        self.quick = quick
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// The groups of figures, in the order they run.
    public nonisolated static let groups = ["dispatch", "small", "large", "raw", "reading", "diff", "report"]

    /// Runs the benchmarks of `groups` (every group when nil); `progress` hears what is being
    /// measured.
    public func run(groups: Set<String>? = nil, progress: (String) -> Void) async throws -> BenchmarkResult {
        defer { try? FileManager.default.removeItem(at: folder) }
        var result = BenchmarkResult()
        func wanted(_ group: String) -> Bool { groups?.contains(group) ?? true }
        if wanted("dispatch") {
            progress("dispatch without and with recording (login state)")
            try measureDispatch(into: &result)
        }
        if wanted("small") {
            progress("sustained recording to disk (login state)")
            try measureSmallRecording(into: &result)
        }
        if wanted("large") {
            progress("sustained recording to disk (\(photoCount)-photo state)")
            try measureLargeRecording(into: &result)
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
        return result
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
