import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// chromedriver as a child in a process group of its own, which the browsers it starts join:
/// killing the group ends all of them, also when a test fails before it closes its browser.
///
/// Started by ``SpawnedProcess``, not Foundation's `Process`: chromium must inherit no socket of
/// ours and none of our blocked signals.
final class DriverProcess {
    let pid: pid_t
    private var reaped = false

    /// Starts `executable` with `arguments`, its standard output and error into `logPath`, and
    /// `changes` made to our environment.
    init(executable: String, arguments: [String], logPath: String, environment changes: [String: String] = [:]) throws {
        pid = try SpawnedProcess.spawn(executable, arguments, outputPath: logPath, environment: changes, ownGroup: true)
    }

    deinit {
        end()
    }

    /// Whether the driver has ended. It is left a zombie, not reaped, so that its id (the
    /// group's) cannot be given to another process before `end` kills the group.
    var hasExited: Bool {
        guard !reaped else { return true }
        var info = siginfo_t()
        // With WNOHANG and nothing to report, Linux leaves `si_signo` 0.
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return true }
        return info.si_signo == SIGCHLD
    }

    /// Waits until the driver ends on its own, at most `timeout`; returns whether it did.
    func waitForExit(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !hasExited {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// Kills the whole group (whatever of it still runs), then reaps the driver.
    func end() {
        guard !reaped else { return }
        reaped = true
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    }
}
