import Foundation
import RewindLog
import RewindReplay

extension ReportWriter {
    /// The steps a replay's report shows: the whole session when it fits, else the steps up to
    /// the failing one and a few after it.
    public func replayRange(for comparison: ReportComparison, of session: SessionSummary) -> ClosedRange<Int>? {
        guard session.lastStep > maximumSteps else { return nil }
        let last = min(session.lastStep, comparison.step + 100)
        return max(1, last - maximumSteps + 1)...last
    }

    /// Writes the picture of a failed replay into `folder` (created if missing), opened at its
    /// failing step, and returns the file's path; nil when the replay has nothing to show.
    public func writeReport(of replay: SessionReplay, into folder: String) throws -> String? {
        guard let comparison = ReportComparison(replay) else { return nil }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let base = URL(fileURLWithPath: reader.path).deletingPathExtension().lastPathComponent
        let name = "\(base)-\(replay.session.number)" + (replay.session.name.map { "-\($0)" } ?? "")
        let safe = String(
            name.unicodeScalars.map { scalar in
                CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII || "-_.".unicodeScalars.contains(scalar) ? Character(scalar) : "-"
            })
        let path = (folder as NSString).appendingPathComponent("\(safe).html")
        try write(
            to: path, session: String(replay.session.number), steps: replayRange(for: comparison, of: replay.session), comparisons: [comparison])
        return path
    }
}
