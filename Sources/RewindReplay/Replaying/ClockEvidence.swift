import Foundation
import RewindJSON

/// Finds the current time in a replayed state: the mark of a reducer that reads a coarse clock.
///
/// Replay runs a diverging step again and again (``RepeatedRuns``) to catch a reducer that
/// reads the clock; one that reads it in whole seconds (`Int(Date().timeIntervalSince1970)`)
/// gives the same state every run. But the value it stores is *now*, which the recording
/// cannot hold: a replayed value that falls within the replay's own time, where the
/// recording has another value, is that clock.
///
/// Recognised: numbers of seconds or milliseconds since 1970, seconds since 2001 (how
/// `Codable` writes a `Date`), and texts that are or hold a time (see ``TimeInText``):
/// date-times (ISO 8601, `Date`'s description, to the second or the minute), a date alone
/// (the day of the replay), a time of day (`12:03:04`, `12:03 PM`), read in UTC and in the
/// local zone when they name none. A time inside a longer text (`saved at 12:03:04`) counts
/// only when the recorded text is the same text with other times in their places, so that a
/// text that also changed otherwise stays a divergence. A clock read that does not land in
/// the state as a time (a weekday, a count of hours, a date in words) stays a plain
/// divergence.
enum ClockEvidence {
    /// Seconds of slack on either side of the replay's time, for clocks that truncate.
    static let slack: Double = 2

    static func now() -> Date { Date() }

    /// The paths whose new value in `changes` reads as a time within `interval`.
    static func currentTimePaths(in changes: [JSONChange], during interval: ClosedRange<Date>) -> [JSONPath] {
        changes.compactMap { change in
            switch change.kind {
            case let .added(value):
                return isTime(value, recorded: nil, within: interval) ? change.path : nil
            case let .changed(recorded, value):
                return isTime(value, recorded: recorded, within: interval) ? change.path : nil
            case .removed, .moved:
                return nil
            }
        }
    }

    /// Whether `value`, replayed where the recording has `recorded`, is a time within
    /// `interval`.
    static func isTime(_ value: JSONValue, recorded: JSONValue?, within interval: ClosedRange<Date>) -> Bool {
        let range = interval.lowerBound.timeIntervalSince1970 - slack...interval.upperBound.timeIntervalSince1970 + slack
        switch value {
        case let .int(number):
            return TimeInText.Value.number(Double(number)).falls(in: range, offsets: [])
        case let .double(number):
            return TimeInText.Value.number(number).falls(in: range, offsets: [])
        case let .string(text):
            let offsets = Set([interval.lowerBound, interval.upperBound].map { Double(TimeZone.current.secondsFromGMT(for: $0)) })
            return isTime(text, recorded: recorded, within: range, offsets: [0] + offsets.subtracting([0]).sorted())
        default:
            return false
        }
    }

    private static func isTime(_ text: String, recorded: JSONValue?, within range: ClosedRange<Double>, offsets: [Double]) -> Bool {
        let bytes = Array(text.utf8)
        let times = TimeInText.scan(bytes)
        guard times.contains(where: { $0.value.falls(in: range, offsets: offsets) }) else { return false }
        // The text is the time.
        if times.count == 1, times[0].range == bytes.indices { return true }
        guard case let .string(recordedText)? = recorded else { return false }
        let recordedBytes = Array(recordedText.utf8)
        return template(bytes, times) == template(recordedBytes, TimeInText.scan(recordedBytes))
    }

    /// `text` with each of its times replaced by a byte UTF-8 never has.
    private static func template(_ text: [UInt8], _ times: [TimeInText]) -> [UInt8] {
        var template: [UInt8] = []
        var next = 0
        for time in times {
            template += text[next..<time.range.lowerBound]
            template.append(0xFF)
            next = time.range.upperBound
        }
        return template + text[next...]
    }
}
