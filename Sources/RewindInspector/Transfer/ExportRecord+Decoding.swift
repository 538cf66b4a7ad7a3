import Foundation
import RewindCore
import RewindJSON
import RewindLog

extension ExportRecord {
    /// Why a line is not a valid export record, in a few words naming the field.
    public struct Invalid: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    private static let sessionKeys: Set<String> = [
        "type", "session", "name", "flow", "started_at", "ended_at", "format_version", "schema_version",
        "redacted_paths", "initial_state", "initial_digest", "uuid", "metadata",
    ]
    private static let metadataKeys: Set<String> = ["app", "app_version", "app_build", "device", "os", "origin", "tags"]
    private static let eventKeys: Set<String> = [
        "type", "session", "step", "time", "origin", "action_type", "action", "cause", "outputs", "effects", "digest", "state",
    ]
    private static let gapKeys: Set<String> = ["type", "session", "first_step", "last_step", "reason"]

    /// Reads one line's JSON object back, checking that its `type` is known, that every field
    /// of that type is present with the right type, and that no other field is.
    public init(json: JSONValue) throws(Invalid) {
        guard case .object(let object) = json else {
            throw Invalid(description: "expected a JSON object, found \(JSONFields.kind(of: json))")
        }
        guard case .string(let type)? = object["type"] else {
            throw Invalid(description: "field \"type\" is missing or not a string")
        }
        do throws(JSONFields.Invalid) {
            switch type {
            case "session": self = .session(try Self.session(from: json))
            case "event": self = .event(try Self.event(from: json))
            case "gap": self = .gap(try Self.gap(from: json))
            default: throw JSONFields.Invalid(description: "unknown type \(JSONValue.string(type)); expected session, event or gap")
            }
        } catch {
            throw Invalid(description: error.description)
        }
    }

    private static func session(from json: JSONValue) throws(JSONFields.Invalid) -> ExportedSession {
        let fields = try JSONFields(json, known: sessionKeys)
        return ExportedSession(
            session: try fields.int("session", atLeast: 1),
            name: try fields.optionalString("name"),
            flow: try fields.string("flow"),
            startedAt: try fields.date("started_at"),
            endedAt: try fields.optionalDate("ended_at"),
            formatVersion: try fields.int("format_version"),
            schemaVersion: try fields.int("schema_version"),
            redactedPaths: try fields.strings("redacted_paths"),
            initialState: try fields.value("initial_state"),
            initialDigest: try fields.digest("initial_digest"),
            // Absent from exports written before log format 4.
            id: try fields.has("uuid") ? fields.optionalUUID("uuid") : nil,
            metadata: try fields.has("metadata") ? metadata(from: fields.value("metadata")) : nil
        )
    }

    private static func metadata(from json: JSONValue) throws(JSONFields.Invalid) -> SessionMetadata? {
        if json == .null { return nil }
        let fields = try JSONFields(json, known: metadataKeys)
        var tags: [String: String] = [:]
        guard case .object(let object) = try fields.value("tags") else {
            throw JSONFields.Invalid(description: "field \"tags\" must be an object of strings")
        }
        for (key, value) in zip(object.keys, object.values) {
            guard case .string(let text) = value else { throw JSONFields.Invalid(description: "tag \(JSONValue.string(key)) must be a string") }
            tags[key] = text
        }
        return SessionMetadata(
            app: try fields.optionalString("app"), appVersion: try fields.optionalString("app_version"),
            appBuild: try fields.optionalString("app_build"), device: try fields.optionalString("device"),
            os: try fields.optionalString("os"), origin: try fields.optionalString("origin").map(SessionMetadata.Origin.init(rawValue:)),
            tags: tags)
    }

    private static func event(from json: JSONValue) throws(JSONFields.Invalid) -> ExportedEvent {
        let fields = try JSONFields(json, known: eventKeys)
        return ExportedEvent(
            session: try fields.int("session", atLeast: 1),
            step: try fields.int("step", atLeast: 1, atMost: LogBounds.maximumStep),
            time: try fields.date("time"),
            origin: try fields.string("origin"),
            actionName: try fields.string("action_type"),
            action: try fields.value("action"),
            cause: try fields.optionalInt("cause"),
            outputs: try fields.array("outputs"),
            effects: try fields.effects("effects"),
            digest: try fields.digest("digest"),
            state: try fields.value("state")
        )
    }

    private static func gap(from json: JSONValue) throws(JSONFields.Invalid) -> ExportedGap {
        let fields = try JSONFields(json, known: gapKeys)
        let first = try fields.int("first_step", atLeast: 1, atMost: LogBounds.maximumStep)
        let last = try fields.int("last_step", atLeast: 1, atMost: LogBounds.maximumStep)
        guard first <= last else {
            throw JSONFields.Invalid(description: "a gap cannot end (last_step \(last)) before it starts (first_step \(first))")
        }
        return ExportedGap(session: try fields.int("session", atLeast: 1), steps: first...last, reason: try fields.string("reason"))
    }
}
