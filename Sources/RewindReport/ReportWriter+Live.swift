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

    /// One session's data as the page's script reads it, the same as in a report of it: what
    /// the live page asks for when the session grows. Refused past ``maximumSteps``.
    public func sessionData(_ selector: String) throws -> [UInt8] {
        let session = try reader.session(selector)
        guard session.eventCount <= maximumSteps else {
            throw ReportError(
                .tooLarge, path: reader.path, steps: session.eventCount,
                "a session of \(session.eventCount) steps is more than one page holds (\(maximumSteps))")
        }
        return try ReportSession(session, steps: nil, comparison: nil, reader: reader).json.canonicalBytes
    }
}
