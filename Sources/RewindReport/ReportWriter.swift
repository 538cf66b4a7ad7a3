import Foundation
import RewindInspector
import RewindJSON
import RewindLog

/// Writes `rewind report`: one self-contained HTML file that shows a log's sessions, their
/// timelines, states, diffs and field histories, and steps through them in any browser.
///
/// States travel as the log stores them, the state before the first step shown and then a
/// keyframe or a patch per step, and the page rebuilds them, so a long session stays small.
/// A report past ``maximumSteps`` or ``maximumBytes`` is refused with a ``ReportError`` that
/// says how to narrow it, rather than written as a page no browser opens quickly.
public struct ReportWriter: Sendable {
    public let reader: LogReader
    /// The most steps one report holds, all sessions together.
    public var maximumSteps = 100_000
    /// The most bytes of data one report holds.
    public var maximumBytes = 48 << 20

    public init(reader: LogReader) {
        self.reader = reader
    }

    /// Opens the log at `path` read-only.
    public init(path: String) throws(LogError) {
        reader = try LogReader(path: path)
    }

    /// The report as the bytes of an HTML file.
    ///
    /// - Parameters:
    ///   - selector: the session to show, by number or name; nil shows every session.
    ///   - range: the steps to show, of the one session shown; nil shows them all.
    ///   - comparisons: states to put side by side; the page opens at the first one.
    public func page(session selector: String?, steps range: ClosedRange<Int>? = nil, comparisons: [ReportComparison] = []) throws -> [UInt8] {
        let sessions = try selector.map { [try reader.session($0)] } ?? reader.sessions()
        if range != nil, sessions.count > 1 {
            throw ReportError(
                .ambiguousRange, path: reader.path,
                "--from and --to apply to one session, and the log holds \(sessions.count); choose one with --session")
        }
        let steps = sessions.reduce(0) { total, session in
            let last = min(session.lastStep, range?.upperBound ?? session.lastStep)
            return total + max(0, last - max(1, range?.lowerBound ?? 1) + 1)
        }
        guard steps <= maximumSteps else {
            throw ReportError(
                .tooLarge, path: reader.path, steps: steps,
                "a report of \(steps) steps is more than one page holds (\(maximumSteps)); narrow it with --session and --from/--to")
        }
        let parts = try sessions.map { session throws(LogError) in
            try ReportSession(session, steps: range, comparison: comparisons.first { $0.session == session.number }, reader: reader)
        }
        var data = JSONObject([
            ("format", .int(2)),
            ("log", .string(URL(fileURLWithPath: reader.path).lastPathComponent)),
            ("sessions", .array(parts.map(\.json))),
        ])
        if let first = comparisons.first {
            data["open"] = .object(JSONObject([("session", .int(first.session)), ("step", .int(first.step))]))
        }
        let bytes = JSONValue.object(data).canonicalBytes
        guard bytes.count <= maximumBytes else {
            throw ReportError(
                .tooLarge, path: reader.path, steps: steps,
                "a report of \(bytes.count >> 20) MB is more than one page holds (\(maximumBytes >> 20) MB); narrow it with --session and --from/--to")
        }
        let title = "Rewind report: " + URL(fileURLWithPath: reader.path).lastPathComponent
        return ReportPage(title: title, data: bytes).bytes
    }

    /// Writes the report to `path`, replacing any file there only once it is complete; a path
    /// that is the log itself, or another SQLite database, is refused.
    public func write(to path: String, session selector: String?, steps range: ClosedRange<Int>? = nil, comparisons: [ReportComparison] = []) throws {
        try LineWriter.checkOutput(path, readingFrom: reader.path)
        let bytes = try page(session: selector, steps: range, comparisons: comparisons)
        let writer = try LineWriter(replacingFileAt: path)
        do {
            try writer.write(raw: bytes)
            try writer.finish()
        } catch {
            writer.discard()
            throw error
        }
    }
}
