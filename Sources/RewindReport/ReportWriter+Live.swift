import Foundation
import RewindJSON
import RewindLog

extension ReportWriter {
    /// The live inspector's page (`rewind live`, docs/live.md): the report's page with no
    /// session in it, whose script asks the server it came from for the sessions and their
    /// steps as they arrive. Its policy lets it talk to that server alone.
    ///
    /// - Parameter routes: the server's paths the script asks, by name: `events` (its event
    ///   stream), `sessions` (their list), `data` and `commands` (a session's, with `:id` where
    ///   its id goes).
    public static func livePage(title: String, routes: [String: String]) -> [UInt8] {
        let routes = JSONValue.object(JSONObject(routes.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }))
        let data = JSONValue.object(
            JSONObject([
                ("format", .int(2)), ("log", .string("live")), ("sessions", .array([])), ("live", .bool(true)), ("live_routes", routes),
            ]))
        var page = ReportPage(title: title, data: data.canonicalBytes)
        page.connects = true
        return page.bytes
    }

    /// The most steps one load of a live session's data holds (16 blocks of the log): a page
    /// that catches up asks again, so that no answer grows with the session.
    public static let liveStepsPerLoad = 4_096

    /// One session's data as the page's script reads it, the same as in a report of it.
    ///
    /// - Parameter after: the last step the asker holds (docs/live.md, "Loads of what is new"):
    ///   the answer holds the steps after it, at most ``liveStepsPerLoad``, without the state
    ///   before them, and says `"after": N`. From 0, or past what the session holds (the asker
    ///   holds another session's steps) or before what it keeps, it starts anew: `"after": 0`,
    ///   with the state before its first step. When nil, the session whole, refused past
    ///   ``maximumSteps``.
    public func sessionData(_ selector: String, after: Int? = nil) throws -> [UInt8] {
        let session = try reader.session(selector)
        guard let after else {
            guard session.eventCount <= maximumSteps else {
                throw ReportError(
                    .tooLarge, path: reader.path, steps: session.eventCount,
                    "a session of \(session.eventCount) steps is more than one page holds (\(maximumSteps))")
            }
            return try ReportSession(session, steps: nil, comparison: nil, reader: reader).json.canonicalBytes
        }
        let cursor = after > session.lastStep || after + 1 < session.firstKeptStep ? 0 : max(0, after)
        let first = max(cursor + 1, session.firstKeptStep)
        // Clamped before the sum: `first` is at most `lastStep + 1`.
        let last = min(session.lastStep, first + Self.liveStepsPerLoad - 1)
        let part = try ReportSession(session, steps: first...max(first, last), comparison: nil, reader: reader, base: cursor == 0)
        guard case .object(var object) = part.json else { return part.json.canonicalBytes }
        object["after"] = .int(cursor)
        return JSONValue.object(object).canonicalBytes
    }
}
