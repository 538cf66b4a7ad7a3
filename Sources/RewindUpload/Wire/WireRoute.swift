import Foundation

/// A route of the collector's and the live inspector's HTTP API (docs/collector.md,
/// docs/live.md), written once for the servers' routers and the clients that call them.
package struct WireRoute: Sendable, Hashable, CustomStringConvertible {
    /// The name of the session's id in a pattern (`:id`).
    package static let id = "id"

    /// The path as a router takes it, `/v1/sessions/:id/blocks`.
    package let pattern: String

    package init(_ pattern: String) {
        self.pattern = pattern
    }

    package var description: String { pattern }

    /// The path of session `id`'s route.
    package func path(_ id: UUID) -> String {
        pattern.replacingOccurrences(of: ":" + Self.id, with: id.uuidString)
    }

    /// The route of session `id` (or of none, for a route without an id) under `root`.
    package func url(on root: URL, _ id: UUID? = nil) -> URL {
        root.appendingPathComponent(String((id.map(path) ?? pattern).dropFirst()))
    }
}

extension WireRoute {
    // The collector's API, for apps (an upload token) and tools (a read token).
    /// `POST`: an upload.
    package static let blocks = WireRoute("/v1/sessions/:id/blocks")
    /// `GET`: how far the store holds the session.
    package static let progress = WireRoute("/v1/sessions/:id")
    /// `GET`: the sessions held.
    package static let sessions = WireRoute("/v1/sessions")
    /// `POST`: a replay's verdict, kept beside the session.
    package static let verdict = WireRoute("/v1/sessions/:id/verdict")
    /// `POST`: a share link, for an app's token.
    package static let link = WireRoute("/v1/sessions/:id/link")
    /// `GET`: the session's HTML inspector.
    package static let report = WireRoute("/sessions/:id/report")
    /// `GET`: the session alone, as a `.rewind` log.
    package static let log = WireRoute("/sessions/:id/log")
    /// `GET`: a share link's report, without a token.
    package static let shared = WireRoute("/s/:id")

    // The collector's pages, for a browser signed in with a cookie.
    package static let home = WireRoute("/")
    package static let signIn = WireRoute("/signin")
    package static let signOut = WireRoute("/signout")
    package static let pageScript = WireRoute("/assets/sessions.js")
    /// `POST`: the sessions page's share link.
    package static let share = WireRoute("/sessions/:id/share")

    // The live inspector's pages.
    /// `GET`: Server-Sent Events.
    package static let liveEvents = WireRoute("/live/events")
    package static let liveSessions = WireRoute("/live/sessions")
    package static let liveData = WireRoute("/live/sessions/:id/data")
    /// `POST`: a page's (or a tool's) command for the app.
    package static let liveCommand = WireRoute("/live/sessions/:id/commands")

    // The live inspector's API for the app, beside the upload routes above.
    /// `GET`: the app's long poll for commands.
    package static let liveCommands = WireRoute("/v1/live/sessions/:id/commands")
    /// `POST`: what the app did with a command.
    package static let liveOutcomes = WireRoute("/v1/live/sessions/:id/outcomes")
}
