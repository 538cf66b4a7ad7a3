import Foundation
import RewindCore

/// Which sessions `rewind sessions` lists: every condition given must hold.
package struct SessionFilter: Sendable, Equatable {
    /// The session's flow, exactly.
    package var flow: String?
    /// Sessions started at or after this time.
    package var since: Date?
    /// The app's version, exactly.
    package var appVersion: String?
    /// The origin (`device`, `ci`, `dev`), exactly.
    package var origin: String?
    /// Tags the session must have, each with this value.
    package var tags: [String: String]
    /// Only sessions a flight recorder reported (``SessionReport``).
    package var reportedOnly: Bool

    package init(
        flow: String? = nil, since: Date? = nil, appVersion: String? = nil, origin: String? = nil, tags: [String: String] = [:],
        reportedOnly: Bool = false
    ) {
        self.flow = flow
        self.since = since
        self.appVersion = appVersion
        self.origin = origin
        self.tags = tags
        self.reportedOnly = reportedOnly
    }

    /// Whether no condition is set.
    package var isEmpty: Bool { self == SessionFilter() }

    /// Whether `session` meets every condition. A session without metadata (recorded before
    /// log format 4) meets none about its app, origin or tags.
    package func matches(_ session: SessionSummary) -> Bool {
        if let flow, session.flow != flow { return false }
        if let since, session.startedAt < since { return false }
        if let appVersion, session.metadata?.appVersion != appVersion { return false }
        if let origin, session.metadata?.origin?.rawValue != origin { return false }
        let sessionTags = session.metadata?.tags ?? [:]
        if reportedOnly, sessionTags[SessionReport.tag] == nil { return false }
        return tags.allSatisfy { sessionTags[$0.key] == $0.value }
    }
}

extension SessionFilter {
    /// Why a value given for a filter cannot be read.
    package struct Invalid: Error, CustomStringConvertible, Equatable, Sendable {
        package let description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// Reads `--since`: a duration back from `now` (`90s`, `30m`, `12h`, `2d`, `1w`) or a UTC
    /// date (`2026-11-25`) or time (`2026-11-25T08:00:00Z`).
    package static func since(_ text: String, now: Date) throws(Invalid) -> Date {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
        if let unit = text.last, let seconds = units[unit], let count = Double(text.dropLast()), count >= 0, count.isFinite,
            text.dropLast().allSatisfy(\.isNumber)
        {
            return now.addingTimeInterval(-count * seconds)
        }
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withFullDate]
        if let date = formatter.date(from: text) { return date }
        throw Invalid(description: "invalid --since \"\(text)\": expected a duration such as 2d, 12h, 30m, or a UTC date such as 2026-11-25")
    }

    /// Reads `--tag KEY=VALUE`.
    package static func tag(_ text: String) throws(Invalid) -> (key: String, value: String) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw Invalid(description: "invalid --tag \"\(text)\": expected KEY=VALUE, such as ticket=ABC-12")
        }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }
}
