import Foundation
import RewindJSON

/// One line of a Rewind export: a session header, an event with the whole state after it, or
/// a gap marker. Documented in docs/cli/export.md.
///
/// Every line is one canonical JSON object (keys sorted, no white space) carrying `type` and
/// `session`. Every key of a line type is always present; a value the log does not hold (an
/// unnamed session, a session that never ended, an action with no cause) is `null`.
public enum ExportRecord: Sendable, Equatable {
    case session(ExportedSession)
    case event(ExportedEvent)
    case gap(ExportedGap)

    /// The line as a JSON object, to be written with `canonicalString`.
    public var json: JSONValue {
        switch self {
        case .session(let header):
            [
                "type": "session",
                "session": .int(header.session),
                "name": header.name.map(JSONValue.string) ?? .null,
                "flow": .string(header.flow),
                "started_at": Self.seconds(header.startedAt),
                "ended_at": header.endedAt.map(Self.seconds) ?? .null,
                "format_version": .int(header.formatVersion),
                "schema_version": .int(header.schemaVersion),
                "redacted_paths": .array(header.redactedPaths.map(JSONValue.string)),
                "initial_state": header.initialState,
                "initial_digest": .string(header.initialDigest.description),
                "uuid": header.id.map { .string($0.uuidString) } ?? .null,
                "metadata": header.metadata.map(JSONForms.metadata) ?? .null,
            ]
        case .event(let event):
            [
                "type": "event",
                "session": .int(event.session),
                "step": .int(event.step),
                "time": Self.seconds(event.time),
                "origin": .string(event.origin),
                "action_type": .string(event.actionName),
                "action": event.action,
                "cause": event.cause.map(JSONValue.int) ?? .null,
                "outputs": .array(event.outputs),
                "effects": event.effects?.json ?? .null,
                "digest": .string(event.digest.description),
                "state": event.state,
            ]
        case .gap(let gap):
            [
                "type": "gap",
                "session": .int(gap.session),
                "first_step": .int(gap.steps.lowerBound),
                "last_step": .int(gap.steps.upperBound),
                "reason": .string(gap.reason),
            ]
        }
    }

    /// The number of the session the line belongs to, as the export wrote it.
    public var session: Int {
        switch self {
        case .session(let header): header.session
        case .event(let event): event.session
        case .gap(let gap): gap.session
        }
    }

    /// A time as the log stores it: seconds since 1970, always written as a double.
    static func seconds(_ date: Date) -> JSONValue {
        .double(date.timeIntervalSince1970)
    }
}
