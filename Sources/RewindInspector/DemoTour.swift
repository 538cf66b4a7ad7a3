import Foundation
import RewindLog

/// What `rewind demo` prints after recording: the sessions, a short timeline, one diff, and
/// the commands to try next, all read back from the log.
public struct DemoTour: Sendable {
    let inspector: LogInspector
    let style: TextStyle
    /// The session whose timeline and diff the tour shows.
    static let featured = "login-invalid-then-fixed"

    public init(path: String, style: TextStyle) throws(LogError) {
        inspector = try LogInspector(path: path)
        self.style = style
    }

    public func lines() throws(LogError) -> [String] {
        let path = inspector.path
        let sessions = try inspector.sessions()
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        var lines = ["Recorded \(sessions.count) sessions into \(path) (\(size / 1024) KiB).", ""]
        lines.append(style.heading("Sessions"))
        lines += SessionsRenderer(style: style).render(sessions).map { "  " + $0 }

        let session = try inspector.session(Self.featured)
        let shown = 1...min(10, session.lastStep)
        lines += ["", style.heading("Timeline of \(session.label), steps \(shown.lowerBound)-\(shown.upperBound) of \(session.lastStep)")]
        let timeline = try inspector.timeline(of: session, steps: 1...session.lastStep)
        lines += TimelineRenderer(style: style).render(Array(timeline.prefix(shown.count))).map { "  " + $0 }

        if let tap = timeline.first(where: { $0.name == "didTapLogin" }) {
            lines += ["", style.heading("Diff of \(session.label), step \(tap.step - 1) → \(tap.step) (\(tap.name))")]
            lines += DiffRenderer(style: style).render(try inspector.diff(of: session, from: tap.step - 1, to: tap.step)).map { "  " + $0 }
        }

        lines += ["", style.heading("Next")]
        let name = session.name ?? String(session.number)
        lines += [
            "rewind sessions \(path)",
            "rewind log \(path) --session \(name)",
            "rewind show \(path) 8 --session \(name)",
            "rewind diff \(path) 7 8 --session \(name)",
            "rewind step \(path) --session app-full",
            "rewind find \(path) --where 'status == \"failed\"'",
            "rewind replay \(path)",
            "sqlite3 \(path) 'SELECT id, name, flow FROM session'",
        ].map { "  " + $0 }
        return lines
    }
}
