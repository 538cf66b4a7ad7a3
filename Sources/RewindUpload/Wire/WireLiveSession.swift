import Foundation
import RewindJSON

/// A session as the live inspector lists it, `GET /live/sessions`:
/// `{"sessions": [{"id", "name", "flow", "app", "steps", "last_step", "ended", "outcome"}]}`,
/// newest last; `outcome` is the app's last answer to a command (`LiveOutcome`'s JSON), null
/// before its first.
package struct WireLiveSession: Sendable, Equatable {
    package var id: UUID?
    package var name: String?
    package var flow: String
    package var app: String?
    package var steps: Int
    package var lastStep: Int
    package var ended: Bool
    package var outcome: JSONValue?

    package init(
        id: UUID?, name: String?, flow: String, app: String?, steps: Int, lastStep: Int, ended: Bool, outcome: JSONValue?
    ) {
        self.id = id
        self.name = name
        self.flow = flow
        self.app = app
        self.steps = steps
        self.lastStep = lastStep
        self.ended = ended
        self.outcome = outcome
    }

    /// The sessions of a listing; nil when it has no list.
    package static func listing(_ json: JSONValue) -> [WireLiveSession]? {
        guard case .array(let sessions)? = json[JSONPath("sessions")] else { return nil }
        return sessions.map(WireLiveSession.init(listed:))
    }

    /// A listing of `sessions`.
    package static func listing(of sessions: [WireLiveSession]) -> JSONValue {
        .object(JSONObject([("sessions", .array(sessions.map(\.json)))]))
    }

    private init(listed json: JSONValue) {
        let object: JSONObject? = if case .object(let object) = json { object } else { nil }
        func string(_ key: String) -> String? {
            if case .string(let value)? = object?[key] { value } else { nil }
        }
        func int(_ key: String) -> Int {
            if case .int(let value)? = object?[key] { value } else { 0 }
        }
        id = string("id").flatMap(UUID.init(uuidString:))
        name = string("name")
        flow = string("flow") ?? ""
        app = string("app")
        steps = int("steps")
        lastStep = int("last_step")
        ended = object?["ended"] == .bool(true)
        let outcome = object?["outcome"]
        self.outcome = outcome == .null ? nil : outcome
    }

    package var json: JSONValue {
        func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        return .object(
            JSONObject([
                ("id", optional(id?.uuidString)), ("name", optional(name)), ("flow", .string(flow)), ("app", optional(app)),
                ("steps", .int(steps)), ("last_step", .int(lastStep)), ("ended", .bool(ended)), ("outcome", outcome ?? .null),
            ]))
    }
}
