import ArgumentParser
import Foundation
import RewindCollector

#if Servers
/// `rewind live`: the inspector running apps stream their steps to (docs/live.md).
struct LiveInspectorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Watch running apps in a browser and send them through time (docs/live.md).",
        discussion: """
            Serves the report's page in a live mode: each app that connects \
            (`Store(…, live: .inspector(URL))`, RewindLive) is a session, whose steps appear as \
            it takes them; the page sends the app to a step, skips one or dispatches an action \
            when the app allows travel. Apps' sessions are kept in --log. On loopback (the \
            default) no code is asked; listening on another address prints a pairing code, \
            which apps and pages show with every request. Needs a rewind built with the \
            Servers trait.

            Examples:
              swift run --traits Servers rewind live
              swift run --traits Servers rewind live --listen 0.0.0.0:7777 --log team.rewind
            """)

    @Option(help: ArgumentHelp("The address to listen on; port 0 takes a free one, which the first line names.", valueName: "host:port"))
    var listen: String = "127.0.0.1:7777"

    @Option(help: ArgumentHelp("The log the apps' sessions go to (default: live.rewind in a new temporary folder).", valueName: "path"))
    var log: String?

    @Option(help: ArgumentHelp("Where a line for each request goes: a file, or off (the default).", valueName: "file|off"))
    var accessLog: String = "off"

    func validate() throws {
        _ = try address()
    }

    private func address() throws -> (host: String, port: Int) {
        try ListenAddress.parse(listen, example: "127.0.0.1:7777")
    }

    func run() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else {
            throw ValidationError("the live inspector needs macOS 14 or later")
        }
        let (host, port) = try address()
        let path: String
        if let log {
            path = log
        } else {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-live-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            path = folder.appendingPathComponent("live.rewind").path
        }
        let loopback = ["127.0.0.1", "localhost", "::1"].contains(host)
        let code = loopback ? nil : LiveInspector.makePairingCode()
        let inspector = LiveInspector(logPath: path, pairingCode: code)
        // Off unless asked for: an inspector on a laptop has no one else's requests to log.
        let access = accessLog == "off" ? nil : try AccessLog(.file(accessLog))
        try await inspector.run(host: host, port: port, accessLog: access) { port in
            let shownHost = host.contains(":") ? "[\(host)]" : host
            let url = "http://\(shownHost):\(port)" + (code.map { "/?code=\($0)" } ?? "")
            // Written at once, unbuffered: a script waits for this line to learn the port.
            var line = "rewind live: open \(url) (apps connect to http://\(shownHost):\(port)), keeping sessions in \(path)\n"
            if let code { line += "rewind live: pairing code \(code): apps give it as LiveInspectorLink's pairingCode\n" }
            FileHandle.standardOutput.write(Data(line.utf8))
        }
    }
}
#else
/// `rewind live` of a build without the `Servers` trait, which has no server: whatever it is
/// given, it says what to build, in one line (exit 69).
struct LiveInspectorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live", abstract: "Watch running apps in a browser and send them through time (docs/live.md).",
        discussion: "Needs a rewind built with the Servers trait: swift run --traits Servers rewind live")

    @Argument(parsing: .allUnrecognized) var arguments: [String] = []

    func run() async throws {
        throw CollectorError(
            status: 500, code: "not_built",
            "this rewind was built without the live inspector: build it with the Servers trait (swift run --traits Servers rewind live)")
    }
}
#endif
