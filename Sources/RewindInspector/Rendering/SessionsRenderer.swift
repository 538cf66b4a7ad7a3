import Foundation
import RewindLog
import RewindRendering

/// Formats a log's sessions as a table.
public struct SessionsRenderer: Sendable {
    public var style: TextStyle

    public init(style: TextStyle = .plain) {
        self.style = style
    }

    /// A header line and one line per session: number, name, flow, steps, start, duration;
    /// names escaped for a terminal (``TerminalText``) before the columns are measured. When a
    /// session was trimmed by its log's retention, a last column says how many steps are kept
    /// and which are not: `1185 kept, steps 1-98,815 not kept`. When a flight recorder's
    /// trigger sent a session, a column says why: `at step 1208: login failed`, cut to 72
    /// characters.
    public func render(_ sessions: [SessionSummary]) -> [String] {
        let trimmed = sessions.contains { $0.notKept != nil }
        let reported = sessions.contains { $0.report != nil }
        let rows = sessions.map { session -> [String] in
            var cells = [
                "\(session.number)", session.name.map(TerminalText.escaped) ?? "-", TerminalText.escaped(session.flow), "\(session.lastStep)",
                Self.timestamp(session.startedAt), Self.duration(session),
            ]
            if trimmed { cells.append(session.notKeptText.map { "\(session.eventCount) kept, \($0)" } ?? "-") }
            if reported { cells.append(session.report.map { Self.cut(TerminalText.escaped($0.text)) } ?? "-") }
            return cells
        }
        let header = ["#", "name", "flow", "steps", "started (UTC)", "duration"] + (trimmed ? ["trimmed"] : []) + (reported ? ["reported"] : [])
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        let rightAligned: Set<Int> = [0, 3, 5]
        func line(_ cells: [String]) -> String {
            cells.indices.map { column in
                rightAligned.contains(column) ? cells[column].leftPadded(to: widths[column]) : cells[column].rightPadded(to: widths[column])
            }.joined(separator: "  ")
        }
        // The padding of a last column aligned left trails nothing.
        func withoutTrailingSpaces(_ text: String) -> String { String(text.reversed().drop { $0 == " " }.reversed()) }
        return [style.dim(withoutTrailingSpaces(line(header)))] + rows.map { withoutTrailingSpaces(line($0)) }
    }

    /// A reason as the `reported` column shows it: at most 72 characters, the rest `…`
    /// (`sessions --json` and `show` have it whole).
    static func cut(_ text: String) -> String {
        text.count <= 72 ? text : text.prefix(71) + "…"
    }

    /// A start time as the session list shows it: `2026-11-22 23:18:21`, UTC.
    public static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: date)
    }

    /// A session's duration, start to last step, as `DurationText` writes it: `4.980s`,
    /// `2m 5.2s`, `8d 9h 20m`.
    public static func duration(_ session: SessionSummary) -> String {
        guard let last = session.lastTime else { return DurationText.describe(0) }
        return DurationText.describe(last.timeIntervalSince(session.startedAt))
    }
}
