import Foundation

/// Waits for a session that a recorder is writing to grow, for readers that follow it live
/// (`--follow`), like `tail -f`.
///
/// It polls: every ``interval`` it asks SQLite whether anything was committed since its last
/// look (`PRAGMA data_version`, which reads no table), and only then re-reads the session's
/// row. The reader is read-only and waits out a writer's lock (WAL mode, a busy timeout), so
/// following never fails because a recorder commits. A session is done when its end is
/// recorded (``SessionSummary/endedAt``); a recorder that dies without ending it leaves a
/// follower waiting until it is cancelled.
package struct LogFollower: Sendable {
    /// The reader it polls; a new one while waiting for a log's first session (see
    /// ``newestSession()``).
    package private(set) var reader: LogReader
    /// How long it waits between two looks at the log.
    package let interval: Duration
    /// Asked between two looks; true stops the wait.
    private let isCancelled: @Sendable () -> Bool
    /// The log's `data_version` at the last look; nil before the first.
    private var seenVersion: Int?

    /// - Parameters:
    ///   - interval: the time between two looks at the log; a look costs one pragma.
    ///   - isCancelled: asked between two looks; true ends a wait, which then returns nil
    ///     (a signal handler's flag, say).
    package init(reader: LogReader, interval: Duration = .milliseconds(50), isCancelled: @escaping @Sendable () -> Bool = { false }) {
        self.reader = reader
        self.interval = interval
        self.isCancelled = isCancelled
    }

    /// `session` as the log holds it now: re-read when something was committed since the last
    /// look, the same summary otherwise. Never waits.
    package mutating func refresh(_ session: SessionSummary) throws(LogError) -> SessionSummary {
        let version = try reader.dataVersion()
        guard version != seenVersion else { return session }
        // Read after the version: a commit in between changes it again, so the next look
        // reads once more rather than missing it.
        seenVersion = version
        return try reader.session(number: session.number)
    }

    /// `session` once it has a step after `step` or has ended, whichever comes first, as the
    /// log then holds it; nil when cancelled first.
    package mutating func wait(for session: SessionSummary, pastStep step: Int) throws(LogError) -> SessionSummary? {
        var current = session
        while true {
            current = try refresh(current)
            if current.lastStep > step || current.endedAt != nil { return current }
            guard pause() else { return nil }
        }
    }

    /// The log's newest session (the one a recorder writes last), waiting for one when the log
    /// holds none yet, or none numbered after `number`; nil when cancelled first.
    ///
    /// While it waits, it opens the log anew at each look: a log that no recorder has open is
    /// read as a closed file, which would never show a session a recorder adds later.
    package mutating func newestSession(after number: Int? = nil) throws(LogError) -> SessionSummary? {
        while true {
            if let newest = try reader.newestSession(), newest.number > number ?? .min { return newest }
            guard pause() else { return nil }
            reader = try LogReader(path: reader.path, verifying: reader.isVerifying)
            seenVersion = nil
        }
    }

    /// Sleeps for ``interval``; false, at once, when cancelled.
    private func pause() -> Bool {
        guard !isCancelled() else { return false }
        let (seconds, attoseconds) = interval.components
        Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
        return !isCancelled()
    }
}
