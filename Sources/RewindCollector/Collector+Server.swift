#if Servers
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import RewindUpload
import ServiceLifecycle

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Collector {
    /// Serves on `host`:`port` (0: a free port) until the task is cancelled or the process
    /// gets SIGTERM or SIGINT; `onListening` gets the port once it accepts connections.
    ///
    /// - Parameter tls: PEM files of a certificate chain and its key; plain HTTP when nil (a
    ///   reverse proxy in front, docs/collector.md).
    public func run(
        host: String, port: Int, tls: (certificate: String, key: String)? = nil, accessLog: AccessLog? = nil,
        onListening: @escaping @Sendable (Int) -> Void
    ) async throws {
        let router = Router(context: CollectorRequestContext.self)
        let guardian = RequestGuard(tokens: tokens, limits: limits)
        let scheme = tls == nil ? "http" : "https"
        let links = ShareLinks(tokenFile: tokens.path)
        let pages = Pages(guardian: guardian, signIns: try await signIns(), links: links, scheme: scheme)
        // Outermost, so that it sees every answer as the client gets it.
        if let accessLog { router.add(middleware: AccessLogging(log: accessLog, signIns: (pages.signIns, pages.cookieName))) }
        router.add(middleware: ErrorBodies())
        router.add(middleware: HiddenRoutes(guardian: guardian))
        // An app's routes: an upload token.
        router.group().add(middleware: TokenAuthentication(guardian: guardian, scope: .upload))
            .post(.init(WireRoute.blocks)) { request, context in try await self.upload(request, context, guardian) }
            .get(.init(WireRoute.progress)) { _, context in try await self.progress(context) }
            .post(.init(WireRoute.link)) { request, context in try await self.makeLink(request, context, links: links, scheme: scheme) }
        // A tool's: a read token.
        router.group().add(middleware: TokenAuthentication(guardian: guardian, scope: .read))
            .get(.init(WireRoute.sessions)) { request, _ in try await self.list(request) }
            .post(.init(WireRoute.verdict)) { request, context in try await self.verdict(request, context) }
            .get(.init(WireRoute.log)) { _, context in try await self.log(context) }
        // A browser's: the sessions page's cookie, checked by each page.
        addPages(to: router.group().add(middleware: TokenAuthentication(guardian: guardian, scope: nil, optional: true)), pages)
        // A report: a read token, or the cookie.
        router.group().add(middleware: TokenAuthentication(guardian: guardian, scope: .read, optional: true))
            .get(.init(WireRoute.report)) { request, context in
                guard context.token != nil else { return try await self.reportForPage(request, context, pages) }
                return try await self.reportPage(try context.sessionID(), request: request, scheme: scheme)
            }
        // A share link's: its signature instead of a token (ShareLinks).
        router.get(.init(WireRoute.shared)) { request, context in try await self.shared(request, context, links: links, scheme: scheme, guardian) }
        var logger = Logger(label: "rewind.collector")
        logger.logLevel = .critical
        let app = Application(
            router: router, server: try server(tls: tls), configuration: .init(address: .hostname(host, port: port), serverName: "rewind"),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? port) }, logger: logger)
        try await ServerShutdown.run([app], logger: logger)
    }
}
#endif
