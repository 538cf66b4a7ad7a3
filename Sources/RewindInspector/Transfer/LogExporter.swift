import Foundation
import RewindJSON
import RewindLog

/// Turns a log into JSON lines: per session a header, then each event with the whole state
/// after it, with the gap markers in step order. The format is in docs/cli/export.md.
///
/// Streams: each session is walked once, applying each patch to the state before it, and every
/// line is handed on as soon as it is made, so memory holds one state, not the whole log.
/// The export holds exactly what the log holds: a redacted secret stays a placeholder.
public struct LogExporter: Sendable {
    public let reader: LogReader

    public init(reader: LogReader) {
        self.reader = reader
    }

    /// Opens the log at `path` read-only.
    public init(path: String) throws(LogError) {
        reader = try LogReader(path: path)
    }

    /// The sessions to export: the one `selector` names, or every session when it is nil.
    public func sessions(_ selector: String?) throws(LogError) -> [SessionSummary] {
        guard let selector else { return try reader.sessions() }
        return [try reader.session(selector)]
    }

    /// Refuses an output path that would overwrite the log itself or any other SQLite
    /// database (a log is never the intended target of an export).
    public func checkOutput(_ output: String) throws(LogError) {
        if OutputFile.isSameFile(output, reader.path) {
            throw LogError(.invalidArgument, path: output, "is the log being exported; choose another --output")
        }
        if OutputFile.isSQLiteDatabase(output) {
            throw LogError(.invalidArgument, path: output, "is a SQLite database (a log?) and would be overwritten; choose another --output")
        }
    }

    /// Hands every line of `sessions` to `emit`, in order.
    ///
    /// Errors reading the log are ``LogError``s; an error thrown by `emit` (a full disk) is
    /// rethrown as it is.
    public func export(_ sessions: [SessionSummary], into emit: (ExportRecord) throws -> Void) throws {
        for session in sessions {
            try export(session, into: emit)
        }
    }

    /// Writes every line of `sessions` to `writer`, without finishing it.
    public func export(_ sessions: [SessionSummary], to writer: LineWriter) throws {
        try export(sessions) { record in try writer.write(record.json) }
    }

    private func export(_ session: SessionSummary, into emit: (ExportRecord) throws -> Void) throws {
        let initial = try reader.initialRecord(of: session)
        try emit(
            .session(
                ExportedSession(
                    session: session.number, name: session.name, flow: session.flow,
                    startedAt: session.startedAt, endedAt: session.endedAt,
                    formatVersion: session.formatVersion, schemaVersion: session.schemaVersion,
                    redactedPaths: session.redactedPaths,
                    initialState: initial.state, initialDigest: initial.digest, id: session.id, metadata: session.metadata
                )))
        var gaps = try reader.gaps(of: session)[...]
        // An error of `emit` comes out as it was, not as damage of the log.
        var caller = CallerError()
        do {
            try reader.walkStates(session, steps: 1...max(1, session.lastStep)) { event, state in
                while let gap = gaps.first, gap.steps.lowerBound < event.step {
                    try caller.run { try emit(.gap(ExportedGap(session: session.number, steps: gap.steps, reason: gap.reason))) }
                    gaps.removeFirst()
                }
                try caller.run {
                    try emit(
                        .event(
                            ExportedEvent(
                                session: session.number, step: event.step, time: event.time, origin: event.origin,
                                actionName: event.actionName, action: event.action, cause: event.cause,
                                outputs: event.outputs, effects: event.effects, digest: event.digest, state: state
                            )))
                }
            }
        } catch {
            throw caller.error ?? error
        }
        for gap in gaps {
            try emit(.gap(ExportedGap(session: session.number, steps: gap.steps, reason: gap.reason)))
        }
    }
}
