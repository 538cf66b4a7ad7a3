import Foundation
import RewindWebDriver
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `rewind` running beside the test (by ``SpawnedProcess``), its standard output and error into a
/// file: for commands that go on while the test does something else, like `log --follow`.
///
/// The test never sleeps for a guessed while: it polls the output or the exit a bounded number
/// of times, and a process that outlives the test is killed.
@MainActor
final class BackgroundRewind {
    let pid: pid_t
    private let outputPath: String
    private var status: Int32?

    /// Starts `rewind` (or `executable`) with `arguments`; its output goes into a file of `folder`.
    init(_ arguments: [String], in folder: TemporaryDirectory, executable: URL? = nil) throws {
        outputPath = folder.path("rewind-\(UUID().uuidString).out")
        pid = try SpawnedProcess.spawn((executable ?? RewindBinary.url).path, arguments, outputPath: outputPath)
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            var ignored: Int32 = 0
            waitpid(pid, &ignored, 0)
        }
    }

    /// What it printed so far.
    var output: String {
        (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    /// Polls the output until it satisfies `condition`, at most `tries` times a hundredth of a
    /// second apart; returns the last output seen either way.
    func waitForOutput(tries: Int = 6_000, _ condition: (String) -> Bool) async throws -> String {
        for _ in 0..<tries {
            let text = output
            if condition(text) { return text }
            try await Task.sleep(for: .milliseconds(10))
        }
        return output
    }

    /// Its exit status (128 + N when signal N ended it), polled for at most a minute; nil when
    /// it has not ended by then.
    func waitForExit(tries: Int = 6_000) async throws -> Int32? {
        for _ in 0..<tries {
            if let status = try exitStatus() { return status }
            try await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    /// The exit status when it has ended, nil while it runs.
    func exitStatus() throws -> Int32? {
        if let status { return status }
        var raw: Int32 = 0
        let result = waitpid(pid, &raw, WNOHANG)
        guard result == pid else { return nil }
        // Exited normally: the low 7 bits are 0 and the status is in the next byte.
        status = raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
        return status
    }
}
