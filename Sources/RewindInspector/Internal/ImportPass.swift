import Foundation
import RewindCore
import RewindJSON
import RewindLog

/// One pass over the lines of an export: checks each line against the ones before it and,
/// when given a sink, writes the sessions into it as a recorder would have.
///
/// Events are stored as the recorder stores them (``KeyframeSchedule``): a keyframe at a
/// session's first step, after a gap and now and then, and otherwise the patch from the
/// previous state.
struct ImportPass {
    /// The export being read, for messages.
    let path: String
    /// Where to write; nil to verify only.
    let sink: SQLiteSink?
    /// The log being written, for messages.
    let output: String
    private static let batchSize = 256
    private(set) var imported: [ImportedSession] = []
    private var current: Current?

    /// What the pass knows of the session being read.
    private struct Current {
        var header: ExportedSession
        var summary: ImportedSession
        var audit: RedactionAudit
        var previous: JSONValue
        var lastStep = 0
        var needsKeyframe = true
        var keyframes = RecorderConfiguration().keyframes
        var events: [RecordedEvent] = []
        var gaps: [RecordingGap] = []

        var recordsEffects: Bool { SQLiteSink.recordsEffects(formatVersion: header.formatVersion) }
        /// The rule of the export's digests, and of those written: a session that records its
        /// effects is written in the newest format, its digests taken anew when that rule differs.
        var exportedRule: StateDigest.Rule { StateDigest.Rule(logFormat: header.formatVersion) }
        var writtenRule: StateDigest.Rule { SessionHeader.digestRule(recordingEffects: recordsEffects) }
    }

    /// The oldest log format whose exports this rewind imports.
    static let oldestFormat = 3

    init(path: String, sink: SQLiteSink?, output: String) {
        self.path = path
        self.sink = sink
        self.output = output
    }

    /// Reads line `number`; an empty line is skipped.
    mutating func consume(_ line: ArraySlice<UInt8>, number: Int) throws {
        guard !line.isEmpty else { return }
        let record: ExportRecord
        do {
            record = try ExportRecord(json: try JSONValue(parsing: line))
        } catch {
            throw invalid(number, "\(error)")
        }
        switch record {
        case .session(let header): try begin(header, line: number)
        case .event(let event): try append(event, line: number)
        case .gap(let gap): try append(gap, line: number)
        }
    }

    /// Ends the last session; an export without any session is refused.
    mutating func finish() throws {
        try endSession()
        guard !imported.isEmpty else {
            throw LogError(.damaged, path: path, "holds no session line; is it the output of rewind export?")
        }
    }

    private mutating func begin(_ header: ExportedSession, line: Int) throws {
        try endSession()
        // Format 4 added the identity and metadata, which an export of format 3 lacks; format 5
        // each step's effects, which one of format 3 or 4 lacks; format 6 summed digests.
        guard Self.oldestFormat...SQLiteSink.formatVersion ~= header.formatVersion else {
            throw invalid(
                line,
                "session \(header.session) has log format version \(header.formatVersion); this rewind imports versions \(Self.oldestFormat) to \(SQLiteSink.formatVersion)"
            )
        }
        var session = Current(
            header: header, summary: ImportedSession(line: line, number: nil, name: header.name, flow: header.flow, steps: 0, gaps: 0, alreadyHeldAs: nil),
            audit: RedactionAudit(patterns: header.redactedPaths), previous: header.initialState)
        let digest = header.initialState.digest(by: session.exportedRule)
        guard digest == header.initialDigest else {
            throw invalid(line, "the initial digest of session \(header.session) is \(header.initialDigest) but its initial state's digest is \(digest)")
        }
        if let path = session.audit.clearValues(inState: header.initialState).first {
            throw invalid(line, "the initial state of session \(header.session) holds a clear value at \(path), a redacted field")
        }
        var number: Int?
        var held: Int?
        if let sink, let id = header.id {
            // A session the log holds already (an export imported twice) is checked as any
            // other and not written again: importing is idempotent, as pushing is.
            held = try writing { try sink.session(identifiedBy: id) }
        }
        if let sink, held == nil {
            number = try writing {
                try sink.beginSession(
                    SessionHeader(
                        name: header.name, flow: header.flow, startedAt: header.startedAt, schemaVersion: header.schemaVersion,
                        initialState: header.initialState,
                        initialDigest: session.writtenRule == session.exportedRule ? digest : header.initialState.digest(by: session.writtenRule),
                        redactedPaths: Set(header.redactedPaths), id: header.id, metadata: header.metadata ?? SessionMetadata(),
                        recordsEffects: session.recordsEffects
                    ))
            }
        }
        session.summary = ImportedSession(line: line, number: number, name: header.name, flow: header.flow, steps: 0, gaps: 0, alreadyHeldAs: held)
        current = session
    }

    private mutating func append(_ event: ExportedEvent, line: Int) throws {
        guard var session = current else { throw invalid(line, "an event line before any session line") }
        let label = "step \(event.step) of session \(event.session)"
        try checkSession(event.session, of: session, line: line)
        guard event.step > session.lastStep else {
            throw invalid(line, "\(label) does not come after step \(session.lastStep)")
        }
        // Steps are contiguous but where a gap line says why, as `check` requires.
        guard event.step == session.lastStep + 1 else {
            throw invalid(line, "\(label) follows step \(session.lastStep): \(Self.missing(session.lastStep + 1...event.step - 1))")
        }
        let digest = event.state.digest(by: session.exportedRule)
        guard digest == event.digest else {
            throw invalid(line, "\(label): the digest \(event.digest) does not match its state, whose digest is \(digest)")
        }
        let clear =
            session.audit.clearValues(inState: event.state)
            + ([event.action] + event.outputs + (event.effects?.sends ?? [])).flatMap(session.audit.clearValues(inAction:))
        if let path = clear.first {
            throw invalid(line, "\(label) holds a clear value at \(path), a redacted field")
        }
        if sink != nil {
            // The steps are contiguous (checked above): only a gap line breaks them.
            let state = session.keyframes.record(
                of: event.state, at: event.step, after: session.previous, followingStoredStep: !session.needsKeyframe)
            session.events.append(
                RecordedEvent(
                    step: event.step, time: event.time, origin: event.origin, actionName: event.actionName,
                    action: event.action, cause: event.cause, outputs: event.outputs,
                    effects: session.recordsEffects ? event.effects ?? RecordedEffects() : nil,
                    digest: session.writtenRule == session.exportedRule ? digest : event.state.digest(by: session.writtenRule),
                    state: state
                ))
        }
        session.needsKeyframe = false
        session.previous = event.state
        session.lastStep = event.step
        session.summary.steps += 1
        current = session
        if session.events.count >= Self.batchSize { try flush() }
    }

    private mutating func append(_ gap: ExportedGap, line: Int) throws {
        guard var session = current else { throw invalid(line, "a gap line before any session line") }
        try checkSession(gap.session, of: session, line: line)
        guard gap.steps.lowerBound > session.lastStep else {
            throw invalid(
                line,
                "the gap of steps \(gap.steps.lowerBound) through \(gap.steps.upperBound) of session \(gap.session) does not come after step \(session.lastStep)"
            )
        }
        guard gap.steps.lowerBound == session.lastStep + 1 else {
            throw invalid(
                line,
                "the gap of steps \(gap.steps.lowerBound) through \(gap.steps.upperBound) of session \(gap.session) follows step \(session.lastStep): \(Self.missing(session.lastStep + 1...gap.steps.lowerBound - 1))"
            )
        }
        if sink != nil { session.gaps.append(RecordingGap(steps: gap.steps, reason: gap.reason)) }
        session.needsKeyframe = true
        session.lastStep = gap.steps.upperBound
        session.summary.gaps += 1
        current = session
    }

    private func checkSession(_ number: Int, of session: Current, line: Int) throws {
        guard number == session.header.session else {
            throw invalid(line, "the line belongs to session \(number) but follows the header of session \(session.header.session)")
        }
    }

    /// Writes the pending events and gaps of the current session.
    private mutating func flush() throws {
        guard let sink, var session = current, let number = session.summary.number,
            !(session.events.isEmpty && session.gaps.isEmpty)
        else { return }
        try writing { try sink.append(session.events, gaps: session.gaps, redactedPaths: [], to: number) }
        session.events.removeAll(keepingCapacity: true)
        session.gaps.removeAll()
        current = session
    }

    private mutating func endSession() throws {
        guard let session = current else { return }
        try flush()
        if let sink, let number = session.summary.number, let endedAt = session.header.endedAt {
            try writing { try sink.endSession(number, at: endedAt) }
        }
        imported.append(session.summary)
        current = nil
    }

    private func writing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw FileWriteError(path: output, "\(error)", underlying: error)
        }
    }

    /// `steps` named as missing, in `check`'s words.
    private static func missing(_ steps: ClosedRange<Int>) -> String {
        steps.lowerBound == steps.upperBound
            ? "step \(steps.lowerBound) is missing and no gap line covers it"
            : "steps \(steps.lowerBound) through \(steps.upperBound) are missing and no gap line covers them"
    }

    private func invalid(_ line: Int, _ reason: String) -> LogError {
        LogError(.damaged, path: path, line: line, reason)
    }
}
