import RewindJSON
import RewindLog

/// `rewind check`: the integrity of a log file and an audit of its sessions.
///
/// Per session it checks every row against the checksum written with it (the session's, each
/// event's, each gap marker's), that steps run from 1 to the last one with every missing step covered
/// by a gap marker, lists the gap markers (a warning, not a failure: the recorder marks what it
/// could not write), rebuilds every state and compares it with its stored digest, checks that
/// the first step after each gap is a keyframe, and looks for clear values in the fields the
/// session lists as redacted. It only reads: the log is opened read-only.
public struct LogChecker: Sendable {
    public let reader: LogReader

    public init(reader: LogReader) {
        self.reader = reader
    }

    /// Opens the log at `path` read-only.
    public init(path: String) throws(LogError) {
        reader = try LogReader(path: path)
    }

    /// Checks the file and the session `selector` names, or every session when it is nil.
    public func check(_ selector: String?) throws(LogError) -> CheckReport {
        let sessions = selector == nil ? try reader.sessions(allowingDamage: true) : [try reader.session(selector, allowingDamage: true)]
        return CheckReport(path: reader.path, integrity: try integrity(), sessions: try sessions.map(check))
    }

    /// SQLite's `PRAGMA integrity_check` of the whole file, and rows that belong to no session.
    public func integrity() throws(LogError) -> CheckResult {
        let messages = try reader.integrityCheck()
        guard messages == ["ok"] else {
            return CheckResult(name: "integrity", status: .problem, summary: "PRAGMA integrity_check (whole file) reports damage", details: messages)
        }
        let strays = try reader.strayRows()
        guard strays.isEmpty else {
            return CheckResult(
                name: "integrity", status: .problem, summary: "rows belong to no session (its session row is gone)",
                details: strays.map { "\($0.count) \($0.table) row\($0.count == 1 ? "" : "s") of session #\($0.session), which has no session row" })
        }
        return CheckResult(name: "integrity", status: .ok, summary: "PRAGMA integrity_check (whole file): ok")
    }

    /// Audits one session, reading each of its rows once.
    public func check(_ session: SessionSummary) throws(LogError) -> SessionCheck {
        let gaps = try reader.gaps(of: session, allowingDamage: true)
        var audit = SessionAudit(session: session, gaps: gaps)
        let initial: Result<(state: JSONValue, digest: StateDigest), LogError>
        do {
            initial = .success(try reader.initialRecord(of: session))
        } catch {
            initial = .failure(error)
        }
        audit.start(initial)
        try reader.scan(session) { stored in
            audit.visit(stored)
            return true
        }
        audit.finish()
        return SessionCheck(session: session, gaps: audit.gaps, results: audit.results)
    }
}
