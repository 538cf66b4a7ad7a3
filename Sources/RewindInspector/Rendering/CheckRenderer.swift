import RewindRendering

/// Formats a ``CheckReport`` as text: one line per check, its findings indented below it, and
/// a summary line. The names, summaries and findings quote recorded strings: each is escaped
/// for a terminal (``TerminalText``).
///
///     demo.rewind
///       integrity  ok       PRAGMA integrity_check (whole file): ok
///     #1 (login-happy), login flow
///       steps      ok       20 steps recorded of 1 through 20, none missing
///       …
///     check passed: 7 sessions, 36 checks, 0 problems, 0 warnings
public struct CheckRenderer: Sendable {
    public var style: TextStyle

    public init(style: TextStyle = .plain) {
        self.style = style
    }

    public func render(_ report: CheckReport) -> [String] {
        var lines = [style.heading(TerminalText.escaped(report.path))]
        lines += render(report.integrity)
        for check in report.sessions {
            lines.append(style.heading(TerminalText.escaped("\(check.session.label), \(check.session.flow) flow")))
            for result in check.results { lines += render(result) }
        }
        let total = report.allResults.count
        let verdict = report.passed ? "check passed" : "check failed"
        let sessions = report.sessions.count == 1 ? "1 session" : "\(report.sessions.count) sessions"
        lines.append(
            "\(verdict): \(sessions), \(total) checks, \(SessionAudit.count(report.problems, "problem")), \(SessionAudit.count(report.warnings, "warning"))")
        return lines
    }

    private func render(_ result: CheckResult) -> [String] {
        let status: String
        switch result.status {
        case .ok: status = style.added("ok".rightPadded(to: 8))
        case .warning: status = style.changed("warning".rightPadded(to: 8))
        case .problem: status = style.removed("problem".rightPadded(to: 8))
        }
        var lines = ["  \(result.name.rightPadded(to: 10)) \(status) \(TerminalText.escaped(result.summary))"]
        lines += result.details.map { "      - \(TerminalText.escaped($0))" }
        if result.omitted > 0 { lines.append("      - and \(result.omitted) more") }
        return lines
    }
}
