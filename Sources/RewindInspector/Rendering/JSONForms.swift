import Foundation
import RewindCore
import RewindJSON
import RewindLog
import RewindRendering

/// The `--json` shapes of the inspector's data, documented in docs/cli/.
public enum JSONForms {
    /// A session as `rewind sessions --json` lists it.
    public static func session(_ session: SessionSummary) -> JSONValue {
        var object = JSONObject([
            ("session", .int(session.number)),
            ("flow", .string(session.flow)),
            ("steps", .int(session.lastStep)),
            ("events", .int(session.eventCount)),
            ("started_at", .double(session.startedAt.timeIntervalSince1970)),
            ("duration", .double(duration(of: session))),
            ("format_version", .int(session.formatVersion)),
            ("schema_version", .int(session.schemaVersion)),
            ("redacted_paths", .array(session.redactedPaths.map(JSONValue.string))),
        ])
        object["name"] = session.name.map(JSONValue.string)
        object["ended_at"] = session.endedAt.map { .double($0.timeIntervalSince1970) }
        object["uuid"] = session.id.map { .string($0.uuidString) }
        object["metadata"] = session.metadata.map(metadata)
        // Steps the log's retention removed from the front, when it did.
        object["not_kept"] = session.notKept.map { ["first": .int($0.lowerBound), "last": .int($0.upperBound)] }
        // Why a flight recorder sent it, when one did (also in the metadata's tags).
        object["report"] = session.report.map { ["reason": .string($0.reason), "step": .int($0.step)] }
        return .object(object)
    }

    /// Seconds from step 0 to the last step, to the microsecond: a difference of two times
    /// near 1.8e9 seconds carries 1e-7 s of noise (3.4000000953674316 for 3.4 s).
    static func duration(of session: SessionSummary) -> Double {
        ((session.lastTime ?? session.startedAt).timeIntervalSince(session.startedAt) * 1_000_000).rounded() / 1_000_000
    }

    /// A session's metadata as `sessions --json` and an export's header line hold it: every
    /// key, `null` where unknown.
    public static func metadata(_ metadata: SessionMetadata) -> JSONValue {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        return [
            "app": text(metadata.app),
            "app_version": text(metadata.appVersion),
            "app_build": text(metadata.appBuild),
            "device": text(metadata.device),
            "os": text(metadata.os),
            "origin": text(metadata.origin?.rawValue),
            "tags": .object(JSONObject(metadata.tags.map { ($0.key, JSONValue.string($0.value)) })),
        ]
    }

    /// A timeline entry as `rewind log --json` prints each line.
    public static func entry(_ entry: TimelineEntry, session: SessionSummary) -> JSONValue {
        var object = JSONObject([
            ("session", .int(session.number)),
            ("step", .int(entry.step)),
            ("offset", .double(entry.offset)),
            ("origin", .string(entry.origin)),
            ("action_type", .string(entry.name)),
            ("action", entry.action),
            ("outputs", .array(entry.outputs.map(JSONValue.string))),
            ("changes", .array(entry.changes.map(\.jsonForm))),
        ])
        object["cause"] = entry.cause.map(JSONValue.int)
        // The steps missing right before it (its `changes` are then empty).
        object["missing"] = entry.missing.map { ["first": .int($0.steps.lowerBound), "last": .int($0.steps.upperBound), "reason": .string($0.reason)] }
        return .object(object)
    }
}
