import Foundation

/// A length of time as a person reads it: `3.400s`, `2m 5.1s`, `1h 2m`, `8d 9h 20m`.
///
/// The precision falls as the length grows, because a recording that lasted days is not read
/// to the millisecond: two units at most past the first, milliseconds only under a minute,
/// tenths of a second only under an hour. Every place that prints a duration (`sessions`,
/// the demo's tour, the report's session tabs) goes through here, so they agree.
public enum DurationText {
    /// `seconds` rounded to the millisecond, then cut (never rounded up) to its last unit, so
    /// that 59 minutes 59.96 seconds reads `59m 59.9s`, not `60m 0.0s`.
    public static func describe(_ seconds: Double) -> String {
        // Past about 30,000 years (beyond what a log stores) the millisecond count would
        // overflow; such a value is printed as it is.
        guard seconds.isFinite, abs(seconds) < 1e12 else { return "\(seconds)s" }
        let milliseconds = Int((abs(seconds) * 1000).rounded())
        let sign = seconds < 0 && milliseconds > 0 ? "-" : ""
        let minute = 60_000, hour = 60 * minute, day = 24 * hour
        switch milliseconds {
        case ..<minute:
            return sign + String(format: "%d.%03ds", milliseconds / 1000, milliseconds % 1000)
        case ..<hour:
            let tenths = milliseconds % minute / 100
            return sign + "\(milliseconds / minute)m \(tenths / 10).\(tenths % 10)s"
        case ..<day:
            return sign + "\(milliseconds / hour)h \(milliseconds % hour / minute)m"
        default:
            return sign + "\(milliseconds / day)d \(milliseconds % day / hour)h \(milliseconds % hour / minute)m"
        }
    }
}
