import Foundation
import RewindWebDriver
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A private tmux server (its own socket file) with one detached session: a real terminal for
/// tests of interactive commands. Polls the screen for expected text a bounded number of times
/// instead of sleeping for a guessed while.
final class Tmux {
    /// The tmux executable, when one is installed.
    static let executable: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return (folders + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"])
            .map { $0 + "/tmux" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var isAvailable: Bool { executable != nil }

    /// Whether a missing tmux is a failure rather than a reason to skip (CI sets
    /// `REWIND_REQUIRE_TMUX=1`, so that the terminal tests cannot silently stop running).
    static var isRequired: Bool { ProcessInfo.processInfo.environment["REWIND_REQUIRE_TMUX"] == "1" }

    /// The server's socket, removed with the server.
    private let socket = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-tmux-\(UUID().uuidString)").path
    let session = "step"

    /// Starts a server and a session of `columns`×`rows` running `command` through the shell.
    init(command: String, columns: Int = 200, rows: Int = 50) throws {
        // The pane stays after the command ends, so that the test can read what it left.
        let started = try run([
            "-f", "/dev/null", "start-server", ";", "set-option", "-g", "remain-on-exit", "on", ";",
            "new-session", "-d", "-s", session, "-x", "\(columns)", "-y", "\(rows)", command,
        ])
        guard started.status == 0 else { throw TmuxError(message: "tmux new-session failed: \(started.output)") }
    }

    deinit {
        _ = try? run(["kill-server"])
        try? FileManager.default.removeItem(atPath: socket)
    }

    /// Sends keys as tmux names them (`n`, `Right`, `End`, `Enter`); `literally` sends text.
    func send(_ keys: String..., literally: Bool = false) throws {
        let result = try run(["send-keys", "-t", session] + (literally ? ["-l"] : []) + keys)
        guard result.status == 0 else { throw TmuxError(message: "tmux send-keys failed: \(result.output)") }
    }

    /// The visible screen as text, without colour.
    func screen() throws -> String {
        try run(["capture-pane", "-p", "-t", session]).output
    }

    /// The visible screen with its colours, as escape sequences.
    func coloredScreen() throws -> String {
        try run(["capture-pane", "-p", "-e", "-t", session]).output
    }

    /// The pane's title, which `ESC ] 0 ; title BEL` sets.
    func paneTitle() throws -> String {
        try run(["display-message", "-p", "-t", session, "#{pane_title}"]).output.trimmingCharacters(in: .newlines)
    }

    /// Polls the screen until it satisfies `condition`, at most `tries` times, a tenth of a
    /// second apart (a minute at least: a bound that only stops a hung test); returns the last
    /// screen seen either way.
    func waitForScreen(tries: Int = 600, _ condition: (String) -> Bool) async throws -> String {
        var last = ""
        for _ in 0..<tries {
            last = try screen()
            if condition(last) { return last }
            try await Task.sleep(for: .milliseconds(100))
        }
        return last
    }

    /// A word quoted for the shell.
    static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs `tmux -S socket arguments`, its output into a file; by ``SpawnedProcess``, so that
    /// the tmux server the first command forks inherits nothing of the test process.
    private func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try SpawnedProcess.run(Self.executable ?? "tmux", ["-u", "-S", socket] + arguments)
    }
}

struct TmuxError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

extension Trait where Self == ConditionTrait {
    /// Runs a test only where tmux is installed, or everywhere when `REWIND_REQUIRE_TMUX=1`:
    /// then a missing tmux fails the test instead of skipping it.
    static var tmux: Self {
        .enabled(if: Tmux.isAvailable || Tmux.isRequired, "needs tmux, which is not installed: apt-get install tmux")
    }
}
