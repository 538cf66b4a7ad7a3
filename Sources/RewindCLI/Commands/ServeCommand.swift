import ArgumentParser
import Foundation
import RewindCollector
import RewindTeamStore

#if Servers
/// `rewind serve`: the collector apps and CI jobs upload to, and its tokens.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the collector that apps and CI jobs upload sessions to (docs/collector.md).",
        discussion: """
            Stores uploads into a log on this machine (the default) or a team store, and serves \
            each session's log and report to holders of a read token. Every request needs a \
            token: make one with `rewind serve token create`. In a browser, its address lists \
            the sessions after a sign-in with a read token. Needs a rewind built with the \
            Servers trait.

            Examples:
              swift run --traits Servers rewind serve token create --store sessions.rewind --app todo
              swift run --traits Servers rewind serve --store sessions.rewind --listen 127.0.0.1:8080
            """,
        subcommands: [Start.self, Token.self, Link.self],
        defaultSubcommand: Start.self
    )

    struct StoreOptions: ParsableArguments {
        @Option(help: ArgumentHelp("Where uploads go: a log (made if missing) or postgres://user@host:port/database.", valueName: "store"))
        var store: String = "collected.rewind"

        @Option(help: ArgumentHelp("The token file (default: the store's path with .tokens; required for a postgres:// store).", valueName: "file"))
        var tokens: String?

        func tokenFile() throws -> CollectorTokens {
            if let tokens { return CollectorTokens(path: tokens) }
            guard !SessionStores.isElsewhere(store) else {
                throw ValidationError("a postgres:// store keeps no files: give the token file with --tokens FILE")
            }
            return CollectorTokens(path: store + ".tokens")
        }
    }

    /// `rewind serve [--store S] [--listen HOST:PORT]`.
    struct Start: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "start", abstract: "Serve (what `rewind serve` does with no subcommand).",
            discussion: """
                Examples:
                  rewind serve start --store sessions.rewind --listen 127.0.0.1:8080
                  rewind serve start --store postgres://rewind@127.0.0.1:5432/rewind --tokens collector.tokens
                """)

        @OptionGroup var options: StoreOptions

        @Option(help: ArgumentHelp("The address to listen on; port 0 takes a free one, which the first line names.", valueName: "host:port"))
        var listen: String = "127.0.0.1:8080"

        @Option(help: ArgumentHelp("A PEM certificate chain: serve HTTPS (with --tls-key).", valueName: "file"))
        var tlsCert: String?

        @Option(help: ArgumentHelp("The PEM private key of --tls-cert.", valueName: "file"))
        var tlsKey: String?

        @Option(help: ArgumentHelp("Requests a second a token may make, on average, in bursts of twice that (429 past it).", valueName: "n"))
        var rate: Double = 500

        @Option(help: ArgumentHelp("Sessions a token may have begun and not ended (429 past it).", valueName: "n"))
        var openSessions: Int = 1_000

        @Option(help: ArgumentHelp("Minutes a session stays open after its last upload without its end (a crashed app's).", valueName: "minutes"))
        var openSessionMinutes: Double = 60

        @Option(help: ArgumentHelp("Seconds a connection may wait without a request under way before it is closed.", valueName: "seconds"))
        var idleTimeout: Double = 30

        @Option(help: ArgumentHelp("Seconds an upload's body may take to arrive (408 past it).", valueName: "seconds"))
        var bodyTimeout: Double = 60

        @Option(help: ArgumentHelp("Uploads taken at once, each holding its body in memory (503 past it).", valueName: "n"))
        var maxUploads: Int = 64

        @Option(
            help: ArgumentHelp(
                "The most bytes a session's blocks may inflate to for its report to be made here (413 and the command that makes it elsewhere past it).",
                valueName: "bytes"))
        var maxReport: Int = 64 << 20

        @Option(help: ArgumentHelp("The same for a session's log, sent from a file (413 past it).", valueName: "bytes"))
        var maxLog: Int = 1 << 30

        @Option(help: ArgumentHelp("The largest body an upload may have, in bytes (413 past it).", valueName: "bytes"))
        var maxBody: Int = 8 << 20

        @Option(help: ArgumentHelp("Where a line a request goes: a file (appended to), or `off` (default: standard output).", valueName: "file|off"))
        var accessLog: String?

        @Flag(help: "Inflate every block and count its steps before acknowledging it, beyond its checksum (about 3x the CPU of an upload).")
        var verifyBlocks = false

        func validate() throws {
            guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("give --tls-cert and --tls-key together") }
            guard rate > 0, rate <= 1_000_000 else { throw ValidationError("--rate must be more than 0 and at most 1000000") }
            guard openSessions > 0 else { throw ValidationError("--open-sessions must be more than 0") }
            guard maxBody >= 1_024, maxBody <= 1 << 30 else { throw ValidationError("--max-body must be from 1024 to 1073741824") }
            guard openSessionMinutes > 0, openSessionMinutes <= 525_600 else {
                throw ValidationError("--open-session-minutes must be more than 0 and at most 525600 (a year)")
            }
            guard idleTimeout >= 0.1, idleTimeout <= 86_400 else { throw ValidationError("--idle-timeout must be from 0.1 to 86400 seconds") }
            guard bodyTimeout >= 0.1, bodyTimeout <= 86_400 else { throw ValidationError("--body-timeout must be from 0.1 to 86400 seconds") }
            guard (1...10_000).contains(maxUploads) else { throw ValidationError("--max-uploads must be from 1 to 10000") }
            guard (1...(16 << 30)).contains(maxReport) else { throw ValidationError("--max-report must be from 1 to 17179869184") }
            guard (1...(1 << 40)).contains(maxLog) else { throw ValidationError("--max-log must be from 1 to 1099511627776") }
            _ = try address()
        }

        private func address() throws -> (host: String, port: Int) {
            try ListenAddress.parse(listen, example: "127.0.0.1:8080")
        }

        func run() async throws {
            guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else {
                throw ValidationError("the collector needs macOS 14 or later")
            }
            let (host, port) = try address()
            let tokens = try options.tokenFile()
            let location = options.store
            var limits = Collector.Limits(
                requestsPerSecond: rate, burst: max(1, Int(rate * 2)), openSessionsPerToken: openSessions,
                openSessionSeconds: openSessionMinutes * 60, idleSeconds: idleTimeout, bodySeconds: bodyTimeout, uploadsInFlight: maxUploads,
                reportBytes: maxReport, logBytes: maxLog)
            limits.upload.bodyBytes = maxBody
            let shown = SessionStores.displayName(location)
            let access = try AccessLog(accessLog.map { $0 == "off" ? .off : .file($0) } ?? .standardOutput)
            try await SessionStores.withServed(location) { store in
                let collector = Collector(store: store, tokens: tokens, limits: limits, verifiesBlocks: verifyBlocks)
                try await collector.run(host: host, port: port, tls: tlsCert.map { ($0, tlsKey ?? "") }, accessLog: access) { port in
                    // Written at once, unbuffered: a script waits for this line to learn the port.
                    let line = "rewind serve: listening on \(tlsCert == nil ? "http" : "https")://\(host):\(port), storing into \(shown)\n"
                    FileHandle.standardOutput.write(Data(line.utf8))
                }
            }
        }
    }

    /// `rewind serve token create|revoke|list`.
    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "token", abstract: "Make, revoke and list the collector's tokens.",
            discussion: """
                Examples:
                  rewind serve token create --store sessions.rewind --app todo
                  rewind serve token list --store sessions.rewind
                """,
            subcommands: [Create.self, Revoke.self, List.self])

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Make a token and print it: the only time it is shown (the file keeps its hash).",
                discussion: """
                    Examples:
                      rewind serve token create --store sessions.rewind --app todo
                      rewind serve token create --store sessions.rewind --app todo --read
                    """)

            @OptionGroup var options: StoreOptions

            @Option(help: "The app the token is for (letters, digits, '.', '-', '_').")
            var app: String

            @Flag(help: "A read token (fetch sessions and reports) rather than an upload token.")
            var read = false

            func run() async throws {
                print(try options.tokenFile().create(app: app, scope: read ? .read : .upload))
            }
        }

        struct Revoke: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Revoke a token by its id (the 16 hex digits after rwt_).",
                discussion: "Example: rewind serve token revoke --store sessions.rewind 3f9c2a7d41b8e605")

            @OptionGroup var options: StoreOptions

            @Argument(help: "The token's id, or the token itself.")
            var id: String

            func run() async throws {
                let parts = id.split(separator: "_", maxSplits: 2)
                let tokenID = parts.count == 3 && parts[0] == "rwt" ? String(parts[1]) : id
                guard try options.tokenFile().revoke(id: tokenID) else {
                    throw CollectorError(status: 404, code: "no_such_token", "no token \(tokenID) to revoke (see rewind serve token list)")
                }
                print("revoked \(tokenID)")
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "List the tokens: id, app, scope, made, revoked (never a secret).",
                discussion: "Example: rewind serve token list --store sessions.rewind")

            @OptionGroup var options: StoreOptions

            func run() async throws {
                let formatter = ISO8601DateFormatter()
                for token in try options.tokenFile().load() {
                    let revoked = token.revokedAt.map { " revoked \(formatter.string(from: $0))" } ?? ""
                    print("\(token.id)  \(token.app)  \(token.scope.rawValue)  made \(formatter.string(from: token.createdAt))\(revoked)")
                }
            }
        }
    }

    /// `rewind serve link create|revoke-all`.
    struct Link: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "link", abstract: "Make links that open a session's report in any browser, or revoke them all.",
            discussion: """
                A link is signed with a key kept beside the token file (TOKENS.links, mode 0600): \
                it opens its session's report, without a token, until it expires. \
                `revoke-all` makes a new key, and every link made before stops working.

                Examples:
                  rewind serve link create --store sessions.rewind 1B4E28BA-2FA1-11D2-883F-0016D3CCA427 --expires 7d
                  rewind serve link revoke-all --store sessions.rewind
                """,
            subcommands: [Create.self, RevokeAll.self])

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Print a link to a session's report that opens without a token until it expires.",
                discussion: "Example: rewind serve link create --store sessions.rewind 1B4E28BA-2FA1-11D2-883F-0016D3CCA427 --expires 12h")

            @OptionGroup var options: StoreOptions

            @Argument(help: "The session's id (a UUID, as rewind sessions lists it).")
            var session: String

            @Option(help: ArgumentHelp("How long the link works: 30m, 12h, 7d (at most 366d).", valueName: "duration"))
            var expires = "7d"

            @Option(help: ArgumentHelp("The collector's address as its readers reach it.", valueName: "url"))
            var base = "http://127.0.0.1:8080"

            func validate() throws {
                guard UUID(uuidString: session) != nil else {
                    throw ValidationError("a session is named by its id, a UUID (rewind sessions STORE lists them), not '\(session)'")
                }
                guard Self.seconds(expires) != nil else {
                    throw ValidationError("--expires is a number and a unit, s, m, h or d, from 1s to 366d, like 7d, not '\(expires)'")
                }
                guard let url = URL(string: base), ["http", "https"].contains(url.scheme ?? ""), url.host != nil, url.query == nil else {
                    throw ValidationError("--base is the collector's http or https address, like https://collector.example, not '\(base)'")
                }
            }

            func run() async throws {
                let id = UUID(uuidString: session)!
                let links = ShareLinks(tokenFile: try options.tokenFile().path)
                let held = try await SessionStores.withServed(options.store, connections: 1) { try await $0.session(id) != nil }
                guard held else { throw CollectorError(status: 404, code: "not_found", "\(options.store) holds no session \(id.uuidString)") }
                let expiry = Date().addingTimeInterval(Self.seconds(expires)!)
                print(try links.create(session: id, expires: expiry, base: URL(string: base)!).absoluteString)
            }

            /// `7d` as seconds; nil for anything else or past ``ShareLinks/longest``.
            static func seconds(_ text: String) -> TimeInterval? {
                guard let unit = text.last, let count = Int(text.dropLast()), count > 0, count <= 1_000_000 else { return nil }
                let scale: TimeInterval? = ["s": 1, "m": 60, "h": 3_600, "d": 86_400][unit]
                guard let scale, TimeInterval(count) * scale <= ShareLinks.longest else { return nil }
                return TimeInterval(count) * scale
            }
        }

        struct RevokeAll: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "revoke-all", abstract: "Make a new link key: every link made before stops working.",
                discussion: "Example: rewind serve link revoke-all --store sessions.rewind")

            @OptionGroup var options: StoreOptions

            func run() async throws {
                try ShareLinks(tokenFile: try options.tokenFile().path).revokeAll()
                print("every link made before now is revoked")
            }
        }
    }
}
#else
/// `rewind serve` of a build without the `Servers` trait, which has no server: whatever it is
/// given, it says what to build, in one line (exit 69).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the collector that apps and CI jobs upload sessions to (docs/collector.md).",
        discussion: "Needs a rewind built with the Servers trait: swift run --traits Servers rewind serve …")

    @Argument(parsing: .allUnrecognized) var arguments: [String] = []

    func run() async throws {
        throw CollectorError(
            status: 500, code: "not_built",
            "this rewind was built without the collector: build it with the Servers trait (swift run --traits Servers rewind serve …)")
    }
}
#endif
