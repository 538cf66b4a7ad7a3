import Foundation

/// The ranges that the numbers of a sound log stay in, checked as they are read.
///
/// A recorder never writes a step below 1 or a time that is not a number of seconds, but a
/// damaged or hand-edited file can hold anything SQLite stores: step 2⁶³−1, a time of 1e300 or
/// infinity. Refusing those here, as damage, keeps every reader's arithmetic (the step after
/// the last, a session's duration in whole minutes) from overflowing and trapping. `import`
/// refuses the same values, so that it never writes a log its own `check` rejects.
package enum LogBounds {
    /// The largest step a reader accepts: far beyond any recording (2⁴⁰, a trillion steps).
    package static let maximumStep = 1 << 40
    /// The largest distance from 1970 a time may have, in seconds: about 31,700 years.
    package static let maximumSeconds = 1e12

    /// A value outside its range, described without the log's path (the reader adds it).
    struct OutOfRange: Error, CustomStringConvertible {
        let description: String
    }

    /// Whether `seconds` is a time a log may hold: finite and within ``maximumSeconds`` of 1970.
    /// An importer checks what it writes against it, so that it writes only what readers read.
    package static func isTime(_ seconds: Double) -> Bool {
        seconds.isFinite && abs(seconds) <= maximumSeconds
    }

    /// Checks the first and last recorded step of a session, nil when it has no step.
    static func checkSteps(first: Int?, last: Int?, of session: Int) throws {
        for step in [first, last].compactMap(\.self) where !(1...maximumStep).contains(step) {
            throw OutOfRange(description: "session #\(session) has a step numbered \(step), outside 1 through \(maximumStep)")
        }
    }

    /// Checks one row's step number, for a reader that names the step itself.
    static func checkStep(_ step: Int) throws {
        guard (1...maximumStep).contains(step) else {
            throw OutOfRange(description: "its step number is outside 1 through \(maximumStep)")
        }
    }

    /// The date of a stored time; `what` names it in the error, like `step 7's time`.
    static func date(_ seconds: Double, _ what: @autoclosure () -> String) throws -> Date {
        guard isTime(seconds) else {
            throw OutOfRange(description: "\(what()) is \(seconds), not a time")
        }
        return Date(timeIntervalSince1970: seconds)
    }
}
