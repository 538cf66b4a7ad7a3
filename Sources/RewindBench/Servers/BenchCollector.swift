import Foundation

/// `rewind serve` in front of the bench's store, on a free loopback port, with an upload token.
final class BenchCollector {
    let url: String
    /// An upload token, or a read token when asked for.
    let token: String
    private let process = Process()

    init(rewind: String, store: String, tokens: String, read: Bool = false, extra: [String] = []) throws {
        token = try ChildProcess.output(
            rewind, ["serve", "token", "create", "--store", store, "--tokens", tokens, "--app", "bench"] + (read ? ["--read"] : [])
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        process.executableURL = URL(fileURLWithPath: rewind)
        // The access log to a file beside the tokens (the store is PostgreSQL's), as a
        // deployment keeps one: standard output, read for the first line only, would fill
        // and stall the server.
        process.arguments = ["serve", "--store", store, "--tokens", tokens, "--listen", "127.0.0.1:0", "--access-log", tokens + ".access"] + extra
        process.standardError = FileHandle.nullDevice
        // Its first line names the port: "rewind serve: listening on http://127.0.0.1:PORT, …".
        let text = try ChildProcess.firstLine(of: process, output: Pipe())
        guard let start = text.range(of: "http://"), let end = text[start.upperBound...].firstIndex(of: ",") else {
            process.terminate()
            throw BenchmarkError("rewind serve did not start: \(text)")
        }
        url = String(text[start.lowerBound..<end])
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
