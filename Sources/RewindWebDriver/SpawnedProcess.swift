import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts a program (for a test, or `rewind bench`) with nothing of ours but the environment: no file
/// descriptor above standard error, no blocked signal, its output into a file.
///
/// Not through Foundation's `Process`: on Linux it leaves a socket open in the child and learns
/// of the child's end when that socket closes, and a server the child forks (tmux's, a browser)
/// would keep it open. And the test's threads block most signals, which a spawned process
/// inherits: a tmux server would never see the SIGTERM of `kill-server`, a browser the signals
/// chromedriver stops it with.
public enum SpawnedProcess {
    /// Whether the child closes every descriptor as it starts (glibc 2.34 and later, or
    /// Darwin's `POSIX_SPAWN_CLOEXEC_DEFAULT`), not only those open when ``spawn`` listed them.
    public static var closesEveryDescriptor: Bool {
        #if canImport(Glibc)
        addCloseFrom != nil
        #else
        true
        #endif
    }

    /// Spawns `executable` with `arguments`, standard output and error into `outputPath`, with
    /// `changes` made to the environment; `ownGroup` puts it at the head of a process group of
    /// its own (its id is the child's), which the processes it starts join.
    public static func spawn(
        _ executable: String, _ arguments: [String], outputPath: String, environment changes: [String: String] = [:], ownGroup: Bool = false
    ) throws -> pid_t {
        let environment = ProcessInfo.processInfo.environment.merging(changes) { _, new in new }.map { "\($0)=\($1)" }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }

        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var noSignals = sigset_t(), defaultSignals = sigset_t()
        sigemptyset(&noSignals)
        sigemptyset(&defaultSignals)
        for number in [SIGHUP, SIGINT, SIGTERM, SIGPIPE, SIGCHLD] { sigaddset(&defaultSignals, number) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if ownGroup {
            // Group 0: a new group whose id is the child's process id.
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
        }
        #if canImport(Glibc)
        closeEveryDescriptorAboveStandardError(&actions)
        #else
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw SpawnedProcessError(executable: executable, message: String(cString: strerror(spawned))) }
        return pid
    }

    /// Runs `executable` with `arguments` to its end, as ``spawn`` starts it: its exit status
    /// (128 + the signal for one that killed it) and what it printed on standard output and error.
    public static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let pid = try spawn(executable, arguments, outputPath: outputPath)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw SpawnedProcessError(executable: executable, message: "waitpid failed: error \(errno)") }
        }
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // Exited normally: the low 7 bits are 0 and the status is in the next byte.
        return (status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F), output)
    }
}

#if canImport(Glibc)
/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
/// module does not import: looked up once by name.
private let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
    guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
}()

/// Has the child close every descriptor above standard error as it starts.
///
/// Closed in the child, not listed here beforehand: a pipe that another test opens between the
/// listing and the spawn would be inherited by a long-lived child (a `--follow`, a tmux server),
/// and that test's read to the end of the pipe would then wait as long as the child lives.
private func closeEveryDescriptorAboveStandardError(_ actions: inout posix_spawn_file_actions_t) {
    if let addCloseFrom, addCloseFrom(&actions, 3) == 0 { return }
    // An older glibc: every descriptor open now (it ignores one closed meanwhile).
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
        posix_spawn_file_actions_addclose(&actions, descriptor)
    }
}
#endif
