import Foundation
import RewindJSON

/// Finds the current time in a replayed state: the mark of a reducer that reads a coarse clock.
///
/// Replay runs a diverging step again and again (``RepeatedRuns``) to catch a reducer that
/// reads the clock; one that reads it in whole seconds (`Int(Date().timeIntervalSince1970)`)
/// gives the same state every run. But the value it stores is *now*, which the recording
/// cannot hold: a replayed number or date string that falls within the replay's own time,
/// where the recording has another value, is that clock.
///
/// Recognised: numbers of seconds or milliseconds since 1970, seconds since 2001 (how
/// `Codable` writes a `Date`), ISO 8601 date-times, and a date alone (`2026-11-22`, the day of
/// the replay). A clock read that does not land in the state as a time (a weekday, a count of
/// hours) stays a plain divergence.
enum ClockEvidence {
    /// Seconds of slack on either side of the replay's time, for clocks that truncate.
    static let slack: Double = 2

    static func now() -> Date { Date() }

    /// The paths whose new value in `changes` reads as a time within `interval`.
    static func currentTimePaths(in changes: [JSONChange], probedDuring interval: ClosedRange<Date>) -> [JSONPath] {
        changes.compactMap { change in
            switch change.kind {
            case let .added(value), let .changed(_, value):
                return isTime(value, within: interval) ? change.path : nil
            case .removed, .moved:
                return nil
            }
        }
    }

    static func isTime(_ value: JSONValue, within interval: ClosedRange<Date>) -> Bool {
        let start = interval.lowerBound.timeIntervalSince1970 - slack
        let end = interval.upperBound.timeIntervalSince1970 + slack
        switch value {
        case let .int(number):
            return isTime(Double(number), start, end)
        case let .double(number):
            return isTime(number, start, end)
        case let .string(text):
            return isTime(text, interval: interval, start, end)
        default:
            return false
        }
    }

    private static func isTime(_ number: Double, _ start: Double, _ end: Double) -> Bool {
        let since2001 = Date.timeIntervalBetween1970AndReferenceDate
        return (start...end).contains(number)
            || (start * 1_000...end * 1_000).contains(number)
            || (start - since2001...end - since2001).contains(number)
    }

    private static func isTime(_ text: String, interval: ClosedRange<Date>, _ start: Double, _ end: Double) -> Bool {
        guard text.count >= 10, text.count <= 40, text.first?.isNumber == true else { return false }
        if text.count == 10 {
            // A day alone: the replay's day, in UTC or in the local zone.
            return [TimeZone(identifier: "UTC")!, TimeZone.current].contains { zone in
                [interval.lowerBound, interval.upperBound].contains { day(of: $0, in: zone) == text }
            }
        }
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds]] {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = options
            if let date = formatter.date(from: text) {
                return (start...end).contains(date.timeIntervalSince1970)
            }
        }
        return false
    }

    private static func day(of date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
