/// A session as `GET /v1/sessions` lists it, the keys of `rewind sessions --json`.
package struct WireListedSession: Codable, Sendable, Equatable {
    package var session: String
    package var name: String?
    package var flow: String
    package var steps: Int
    package var startedAt: Double
    package var endedAt: Double?
    package var app: String?

    package init(session: String, name: String?, flow: String, steps: Int, startedAt: Double, endedAt: Double?, app: String?) {
        self.session = session
        self.name = name
        self.flow = flow
        self.steps = steps
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.app = app
    }

    enum CodingKeys: String, CodingKey {
        case session, name, flow, steps
        case startedAt = "started_at"
        case endedAt = "ended_at"
        case app
    }
}
