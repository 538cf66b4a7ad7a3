import Foundation
import RewindLog
import RewindRendering

/// What `demo` prints after recording: the sessions, a short timeline, one diff, and the
/// commands to try next, all read back from the log.
public struct DemoTour: Sendable {
    let inspector: LogInspector
    let style: TextStyle
    /// How the user runs the command line, like `rewind` or `swift run rewind`.
    let invocation: String
    /// The session whose timeline and diff the tour shows; the first session when nil.
    let featured: String?
    /// More commands to suggest, each written without the invocation, like `find LOG --where …`.
    let suggestions: [String]
    /// The HTML report written beside the log, to open in a browser; nil when none was.
    let report: String?

    /// A tour of the log at `path`.
    ///
    /// - Parameters:
    ///   - invocation: how the user runs the command line, for the suggested commands.
    ///   - featured: the session to show a timeline and a diff of.
    ///   - suggestions: further commands, written after the invocation, where `LOG` stands for
    ///     the log's path.
    ///   - report: the HTML report of the log, which the tour tells how to open.
    public init(
        path: String, style: TextStyle, invocation: String = "rewind", featured: String? = nil, suggestions: [String] = [],
        report: String? = nil
    ) throws(LogError) {
        inspector = try LogInspector(path: path)
        self.style = style
        self.invocation = invocation
        self.featured = featured
        self.suggestions = suggestions
        self.report = report
    }

    /// The tour, the log's names and the paths escaped for a terminal (``TerminalText``).
    public func lines() throws(LogError) -> [String] {
        let sessions = try inspector.sessions()
        let size = (try? FileManager.default.attributesOfItem(atPath: inspector.path)[.size] as? Int) ?? 0
        let path = TerminalText.escaped(inspector.path)
        var lines = ["Recorded \(SessionAudit.count(sessions.count, "session")) into \(path) (\(size / 1024) KiB).", ""]
        lines.append(style.heading("Sessions"))
        lines += SessionsRenderer(style: style).render(sessions).map { "  " + $0 }
        guard let first = sessions.first else { return lines }

        let session = try featured.map { name throws(LogError) in try inspector.session(name) } ?? first
        let name = TerminalText.escaped(session.name ?? String(session.number))
        let label = TerminalText.escaped(session.label)
        var suggested = [
            "sessions \(path)",
            "log \(path) --session \(name)",
        ]
        var featuredStep = session.lastStep
        if session.lastStep > 0 {
            let shown = 1...min(10, session.lastStep)
            lines += ["", style.heading("Timeline of \(label), steps \(shown.lowerBound)-\(shown.upperBound) of \(session.lastStep)")]
            let timeline = try inspector.timeline(of: session, steps: shown)
            lines += TimelineRenderer(style: style).render(timeline).map { "  " + $0 }
            // The step that changed the most fields among those shown, the earliest on a tie.
            if let busiest = timeline.max(by: { $0.changes.count < $1.changes.count || ($0.changes.count == $1.changes.count && $0.step > $1.step) }),
                !busiest.changes.isEmpty
            {
                let step = busiest.step
                featuredStep = step
                lines += ["", style.heading("Diff of \(label), step \(step - 1) → \(step) (\(TerminalText.escaped(busiest.name)))")]
                lines += DiffRenderer(style: style).render(try inspector.diff(of: session, from: step - 1, to: step)).map { "  " + $0 }
                suggested += [
                    "show \(path) \(step) --session \(name)",
                    "diff \(path) \(step - 1) \(step) --session \(name)",
                ]
            }
        }
        if let report {
            let fragment = "#session=\(session.number)&step=\(featuredStep)"
            lines += ["", style.heading("In a browser")]
            lines.append("  \(TerminalText.escaped(report)): every session to step through, with its states, diffs and field histories")
            lines.append("  file://\(TerminalText.escaped(URL(fileURLWithPath: report).path))\(fragment)")
        }
        suggested += [
            "step \(path) --session \(name)"
        ]
        suggested += suggestions.map { $0.replacingOccurrences(of: "LOG", with: path) }
        suggested += ["replay \(path)", "report \(path) --session \(name) --output \(name).html"]

        lines += ["", style.heading("Next")]
        lines += suggested.map { "  \(invocation) \($0)" }
        lines.append("  sqlite3 \(path) 'SELECT id, name, flow FROM session'")
        return lines
    }
}
