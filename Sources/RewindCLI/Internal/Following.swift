import ArgumentParser
import Atomics
import Foundation
import RewindInspector
import RewindLog

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Set by the SIGINT handler, read between two looks at the log: an atomic, lock-free (so safe
/// in a handler), which a read on another thread sees and the compiler cannot keep in a
/// register across the follower's loop.
private let interrupted = ManagedAtomic<Bool>(false)

/// `--follow`'s plumbing for `log`, `find` and `step`: which session to follow, Ctrl-C, and
/// output that leaves at once.
///
/// Ctrl-C ends a follow cleanly: the handler only sets a flag, the follower sees it within
/// its interval, everything read so far has been written, and the command exits 130
/// (128 + SIGINT, as a shell reports a process that SIGINT ended).
enum Following {
    /// The exit status after Ctrl-C.
    static let interruptedExit = ExitCode(130)

    /// Opens `path` to follow the session `selector` names, or without one the newest session,
    /// waiting for a first one when the log holds none; nil when Ctrl-C came first.
    ///
    /// With `live`, a newest session that has already ended is passed over for the next one a
    /// recorder begins, waited for: `log --follow` started before `rewind record` follows
    /// what it records, not the recording before it.
    static func open(_ path: String, session selector: String?, live: Bool = true) throws(LogError) -> (LogInspector, SessionSummary, LogFollower)? {
        // Made here, not in the handler: a global is initialized on its first use, with a lock.
        interrupted.store(false, ordering: .relaxed)
        signal(SIGINT) { _ in interrupted.store(true, ordering: .relaxed) }
        var follower = LogFollower(reader: try LogReader(path: path), isCancelled: { interrupted.load(ordering: .relaxed) })
        let session: SessionSummary
        if let selector {
            session = try follower.reader.session(selector)
        } else {
            guard var newest = try follower.newestSession() else { return nil }
            if live, newest.endedAt != nil {
                guard let next = try follower.newestSession(after: newest.number) else { return nil }
                newest = next
            }
            session = newest
        }
        // The follower may have opened the log anew while it waited: read through its reader.
        return (LogInspector(reader: follower.reader), session, follower)
    }

    /// Puts SIGINT's default handling back: for `step`, which waits for commands, not for the log.
    static func stopCatchingInterrupts() {
        signal(SIGINT, SIG_DFL)
    }

    /// Writes `lines` to standard output at once, each ended by a newline: a follower's reader
    /// (a pipe, `grep`) sees each step when it is recorded, not when a buffer fills.
    static func write(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        FileHandle.standardOutput.write(Data(lines.map { $0 + "\n" }.joined().utf8))
    }
}
