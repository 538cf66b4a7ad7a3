import Foundation
import Testing

/// The PostgreSQL server the team store's tests use: `REWIND_TEST_POSTGRES_URL` (with
/// `PGPASSWORD`), as `tools/postgres-cluster env` prints them. Without it they are skipped,
/// unless `REWIND_REQUIRE_POSTGRES=1` (CI), where they fail.
public enum TestServer {
    public static let url = ProcessInfo.processInfo.environment["REWIND_TEST_POSTGRES_URL"]
    public static let required = ProcessInfo.processInfo.environment["REWIND_REQUIRE_POSTGRES"] == "1"
    public static var enabled: Bool { url != nil || required }

    /// Runs `psql` on the server's database, for what the tests arrange by hand.
    public static func psql(_ sql: String, database: String? = nil) throws -> String {
        guard let url else { throw Missing() }
        var target = url
        if let database, let slash = url.lastIndex(of: "/") { target = String(url[..<slash]) + "/" + database }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = ["-X", "-w", "-q", "-tA", target, "-c", sql]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failed(stderr: String(decoding: err, as: UTF8.self)) }
        return String(decoding: out, as: UTF8.self)
    }

    public struct Missing: Error, CustomStringConvertible {
        public init() {}

        public var description: String { "REWIND_REQUIRE_POSTGRES=1 but no REWIND_TEST_POSTGRES_URL: start one with tools/postgres-cluster" }
    }

    public struct Failed: Error {
        public var stderr: String

        public init(stderr: String) {
            self.stderr = stderr
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a test only where a PostgreSQL server is given (``TestServer``), or everywhere
    /// when `REWIND_REQUIRE_POSTGRES=1`: then a missing server fails the test instead of
    /// skipping it, and Swift Testing reports the skip with the command that provides one.
    public static var postgres: Self {
        .enabled(
            if: TestServer.enabled,
            #"needs a PostgreSQL server (REWIND_TEST_POSTGRES_URL is not set): tools/postgres-cluster start && eval "$(tools/postgres-cluster env)""#
        )
    }
}

/// A database of its own for one test, dropped when it ends.
public final class FreshStore {
    public let name = "rewind_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    public let url: String

    public init() throws {
        guard let server = TestServer.url, let slash = server.lastIndex(of: "/") else { throw TestServer.Missing() }
        url = String(server[..<slash]) + "/" + name
        _ = try TestServer.psql("CREATE DATABASE \(name)")
    }

    deinit {
        _ = try? TestServer.psql("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }
}
