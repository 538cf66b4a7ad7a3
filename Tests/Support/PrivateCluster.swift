import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A PostgreSQL cluster of one test's own: `tools/postgres-cluster` in a temporary folder, on a
/// free loopback port, stopped and removed when the test lets go of it. For a test that
/// restarts the server, which would cut the connections of every other test on the shared one.
public final class PrivateCluster {
    /// `postgres://rewind:PASSWORD@127.0.0.1:PORT/rewind_test`: the password in the URL, as
    /// `PGPASSWORD` names the shared cluster's.
    public let url: String
    private let folder: TemporaryDirectory
    private let directory: String

    public init() throws {
        folder = try TemporaryDirectory()
        directory = folder.path("cluster")
        try Self.script(["start", "--dir", directory, "--port", String(try Self.freePort())])
        let env = try Self.script(["env", "--dir", directory])
        var values: [String: String] = [:]
        for line in env.split(separator: "\n") where line.hasPrefix("export ") {
            let pair = line.dropFirst("export ".count).split(separator: "=", maxSplits: 1)
            // `printf %q` quotes only what needs it; the password is URL-safe base64.
            if pair.count == 2 { values[String(pair[0])] = String(pair[1]).trimmingCharacters(in: CharacterSet(charactersIn: "'")) }
        }
        guard let server = values["REWIND_TEST_POSTGRES_URL"], let password = values["PGPASSWORD"],
            let at = server.range(of: "rewind@")
        else { throw Failed(output: env) }
        let encoded = password.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? password
        url = server.replacingCharacters(in: at, with: "rewind:\(encoded)@")
    }

    /// Stops the server (connections cut) and starts it again; returns once it accepts them.
    public func restart() throws {
        try Self.script(["restart", "--dir", directory])
    }

    deinit {
        _ = try? Self.script(["stop", "--dir", directory])
    }

    /// Runs the script, its output into a file, and waits for it with `waitpid`: Foundation's
    /// `Process` waited for ever for a script that starts a server, which inherits its
    /// descriptors (the exit went unseen while the server ran).
    @discardableResult
    private static func script(_ arguments: [String]) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-cluster-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let argv = ["/bin/bash", root.appendingPathComponent("tools/postgres-cluster").path] + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid = pid_t()
        let pointers = argv.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, pointers, environ)
        guard spawned == 0 else { throw Failed(output: "posix_spawn: \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        // WIFEXITED and WEXITSTATUS, which Swift does not import.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else { throw Failed(output: text) }
        return text
    }

    /// A loopback port no one listens on now: the kernel's choice for a socket bound to port 0.
    private static func freePort() throws -> Int {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failed(output: "socket: \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else { throw Failed(output: "bind: \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    public struct Failed: Error, CustomStringConvertible {
        public var output: String
        public var description: String { "tools/postgres-cluster failed: \(output)" }
    }
}
