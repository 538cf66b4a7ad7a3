import Foundation
import RewindTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `rewind serve` on a free loopback port, beside the test, with an upload and a read token;
/// killed when the test lets go of it (``BackgroundRewind``).
@MainActor
final class RunningCollector {
    let folder: TemporaryDirectory
    let store: String
    let tokens: String
    let upload: String
    let read: String
    private(set) var port = 0
    private var server: BackgroundRewind?
    private let extra: [String]

    /// A collector storing into `store` (a log of a fresh folder unless given), with `extra`
    /// options (`--rate 1`, `--max-body 4096`).
    init(store: String? = nil, extra: [String] = []) async throws {
        folder = try TemporaryDirectory()
        self.store = store ?? folder.path("collected.rewind")
        tokens = folder.path("collected.tokens")
        self.extra = extra
        upload = try await Self.token(["--app", "tests"], tokens: tokens, store: self.store)
        read = try await Self.token(["--app", "tests", "--read"], tokens: tokens, store: self.store)
        try await start()
    }

    /// A second collector on `other`'s store and token file, as behind a load balancer, with
    /// its tokens; it keeps `other`'s folder, which holds the token file, when `other` is gone.
    init(besides other: RunningCollector) async throws {
        folder = other.folder
        (store, tokens, upload, read, extra) = (other.store, other.tokens, other.upload, other.read, other.extra)
        try await start()
    }

    /// Starts the server, and waits for its first line.
    private func start() async throws {
        guard let binary = TeamStoreBuild.binary else { throw TeamStoreBuild.Missing() }
        let server = try BackgroundRewind(
            ["serve", "--store", store, "--tokens", tokens, "--listen", "127.0.0.1:\(port)"] + extra, in: folder, executable: binary)
        self.server = server
        let output = try await server.waitForOutput { $0.contains("listening on") || $0.contains("rewind: ") }
        guard let line = output.split(separator: "\n").first(where: { $0.contains("listening on") }),
            let colon = line.range(of: "127.0.0.1:"), let end = line[colon.upperBound...].firstIndex(of: ",")
        else { throw Failed(output: output) }
        port = Int(line[colon.upperBound..<end]) ?? 0
    }

    var url: String { "http://127.0.0.1:\(port)" }

    /// What the server has printed, standard output and error, once `condition` holds of it
    /// (polled a bounded number of times).
    func serverOutput(_ condition: (String) -> Bool) async throws -> String {
        try await server?.waitForOutput(condition) ?? ""
    }

    /// A request to it: the status, the headers and the body of the answer.
    func request(
        _ method: String, _ path: String, token: String?, body: Data? = nil, stream: Bool = false, headers: [String: String] = [:]
    ) async throws -> (status: Int, headers: [String: String], body: Data) {
        var request = URLRequest(url: URL(string: url + path)!)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            if stream { request.httpBodyStream = InputStream(data: body) } else { request.httpBody = body }
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields[String(describing: name).lowercased()] = String(describing: value) }
        return (http.statusCode, fields, data)
    }

    /// The `code` of an error body, nil when the body is not one.
    static func errorCode(_ body: Data) -> String? {
        ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]).flatMap { $0["error"] as? [String: Any] }?["code"] as? String
    }

    /// The lines of the access log at `path` once it holds `lines` of them (it is written as
    /// each answer is made, which the client may see first); polled a bounded number of times,
    /// for a minute at least: a bound that only stops a hung test.
    func accessLog(_ path: String, lines: Int) async throws -> [String] {
        var read: [String] = []
        for _ in 0..<6_000 {
            read = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            if read.count >= lines { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        return read
    }

    /// A new upload token for `app`, which the running server takes at once.
    func uploadToken(app: String) async throws -> String {
        try await Self.token(["--app", app], tokens: tokens, store: store)
    }

    private static func token(_ arguments: [String], tokens: String, store: String) async throws -> String {
        let result = try await TeamStoreBuild.run(["serve", "token", "create", "--store", store, "--tokens", tokens] + arguments)
        guard result.status == 0 else { throw Failed(output: result.stderr) }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct Failed: Error, CustomStringConvertible {
        var output: String
        var description: String { "rewind serve did not start: \(output)" }
    }
}
