import Foundation
import RewindLog
import Testing

/// The log read by hand with the stock `sqlite3` shell, as docs/log-format.md shows: the view
/// `events` has every step as a row, its blocks inflated by the shell's `sqlar_uncompress`.
@Suite(.enabled(if: SQLiteShell.executable != nil, "needs the sqlite3 shell, which is not installed: apt-get install sqlite3"))
struct SQLiteShellTests {
    @Test func theEventsViewShowsEveryStepOfEverySession() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("demo.rewind")
        try await DemoLog.record(into: path)
        let timeline = try SQLiteShell.run(
            path, "SELECT step, origin, action_type, cause, effects FROM events WHERE session_id = 3 AND step BETWEEN 17 AND 19 ORDER BY step")
        #expect(
            timeline == """
                17|login|didUpdatePassword||
                18|login|didTapLogin||{"runs":["auth.login"]}
                19|login|loginResponse|18|

                """)
        let counts = try SQLiteShell.run(path, "SELECT session_id, count(*), max(step) FROM events GROUP BY session_id")
        let reader = try LogReader(path: path)
        #expect(counts == (try reader.sessions()).map { "\($0.number)|\($0.eventCount)|\($0.lastStep)\n" }.joined())
        // What the view shows is what the reader reads.
        let session = try reader.session("login-happy")
        let viewed = try SQLiteShell.run(path, "SELECT action, digest FROM events WHERE session_id = 1 AND step = 12")
        let event = try #require(try reader.events(of: session, steps: 12...12).first)
        #expect(viewed == "\(event.action.canonicalString)|\(Int64(bitPattern: event.digest.rawValue))\n")
    }
}

/// The `sqlite3` shell, when one is installed.
enum SQLiteShell {
    static let executable: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return (folders + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"])
            .map { $0 + "/sqlite3" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// What `sqlite3 -readonly PATH SQL` prints.
    static func run(_ path: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(executable))
        process.arguments = ["-readonly", path, sql]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
