#if Servers
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import RewindJSON
import RewindLive
import RewindLog
import RewindReport
import RewindUpload
import ServiceLifecycle

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension LiveInspector {
    /// Serves on `host`:`port` (0: a free port) until the task is cancelled or the process gets
    /// SIGTERM or SIGINT; `onListening` gets the port once it accepts connections.
    public func run(host: String, port: Int, accessLog: AccessLog? = nil, onListening: @escaping @Sendable (Int) -> Void) async throws {
        let destination = try LogFileStore(writingTo: logPath)
        do {
            try await serve(host: host, port: port, accessLog: accessLog, into: destination, onListening: onListening)
        } catch {
            await destination.close()
            throw error
        }
        await destination.close()
    }

    private func serve(
        host: String, port: Int, accessLog: AccessLog?, into destination: LogFileStore, onListening: @escaping @Sendable (Int) -> Void
    ) async throws {
        let hub = LiveHub()
        let router = Router(context: BasicRequestContext.self)
        if let accessLog { router.add(middleware: AccessLogging(log: accessLog)) }
        router.add(middleware: ErrorBodies())
        // Every request shows the pairing code first (or, without one, names a loopback host).
        router.add(middleware: Paired(code: pairingCode))
        let page = ReportWriter.livePage(
            title: "Rewind live",
            routes: [
                "events": WireRoute.liveEvents.pattern, "sessions": WireRoute.liveSessions.pattern, "data": WireRoute.liveData.pattern,
                "commands": WireRoute.liveCommand.pattern,
            ])
        router.get(.init(WireRoute.home)) { _, _ in Self.answer(page, type: "text/html; charset=utf-8") }
        router.get(.init(WireRoute.liveEvents)) { _, _ in try await Self.events(hub) }
        router.get(.init(WireRoute.liveSessions)) { _, _ in try await self.sessions(hub) }
        router.get(.init(WireRoute.liveData)) { request, context in try self.data(request, context) }
        router.post(.init(WireRoute.liveCommand)) { request, context in try await self.command(request, context, hub, destination) }
        router.post(.init(WireRoute.blocks)) { request, context in try await self.upload(request, context, into: destination, hub) }
        router.get(.init(WireRoute.progress)) { _, context in try await self.progress(context, in: destination) }
        router.get(.init(WireRoute.liveCommands)) { request, context in try await self.commands(request, context, hub) }
        router.post(.init(WireRoute.liveOutcomes)) { request, context in try await self.outcome(request, context, hub) }
        let idle = Int64(max(0.001, min(idleSeconds, 86_400)) * 1e9)
        var logger = Logger(label: "rewind.live")
        logger.logLevel = .critical
        let app = Application(
            router: router, server: .http1(configuration: .init(idleTimeout: .nanoseconds(idle))),
            configuration: .init(address: .hostname(host, port: port), serverName: "rewind"),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? port) }, logger: logger)
        // A comment every 15 s keeps each page's stream from looking dead to a proxy.
        let keepAlive = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(15))
                await hub.keepAlive()
            }
        }
        defer { keepAlive.cancel() }
        // A signal shuts the services down last first: the hub answers its long polls and ends
        // its streams, then the server, which waits for open requests, has none left to wait
        // for (with an app polling it took 23.8 s; 18 ms now, docs/live.md).
        do {
            try await ServerShutdown.run([app, HubStopping(hub: hub)], logger: logger)
        } catch {
            await hub.finish()
            throw error
        }
        await hub.finish()
    }

    /// `GET /live/events`: Server-Sent Events, `steps` when a session grows and `outcome` when
    /// an app answers a command.
    private static func events(_ hub: LiveHub) async throws -> Response {
        guard let (_, stream) = await hub.listen() else {
            throw CollectorError(status: 503, code: "busy", "\(LiveHub.listeners) pages listen already", retryAfter: 5)
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody(asyncSequence: stream))
    }

    /// `GET /live/sessions`: the sessions the inspector holds, newest last, each with its
    /// app's last outcome.
    private func sessions(_ hub: LiveHub) async throws -> Response {
        let sessions = try LogReader(path: logPath).sessions()
        var listed: [WireLiveSession] = []
        for session in sessions {
            let outcome = if let id = session.id { await hub.outcome(of: id) } else { JSONValue?.none }
            listed.append(
                WireLiveSession(
                    id: session.id, name: session.name, flow: session.flow, app: session.metadata?.app, steps: session.eventCount,
                    lastStep: session.lastStep, ended: session.endedAt != nil, outcome: outcome))
        }
        return Self.answer(WireLiveSession.listing(of: listed).canonicalBytes, type: "application/json")
    }

    /// `GET /live/sessions/{id}/data[?after=N]`: the session as the report's data; with a
    /// cursor, the steps after it (``ReportWriter/sessionData(_:after:)``).
    private func data(_ request: Request, _ context: BasicRequestContext) throws -> Response {
        let id = try context.sessionID()
        var after: Int?
        if let text = request.uri.queryParameters.get("after") {
            guard let number = Int(text), number >= 0 else {
                throw CollectorError.badRequest("after takes the last step a page holds, a number from 0, not '\(String(text.prefix(40)))'")
            }
            after = number
        }
        do {
            return Self.answer(try ReportWriter(path: logPath).sessionData(id.uuidString, after: after), type: "application/json")
        } catch let error as ReportError where error.kind == .tooLarge {
            throw CollectorError(status: 413, code: "too_large", error.message + ": ask for it in parts, ?after=0 and on")
        }
    }

    /// `POST /live/sessions/{id}/commands`: a page's command, queued for the app.
    private func command(_ request: Request, _ context: BasicRequestContext, _ hub: LiveHub, _ destination: LogFileStore) async throws -> Response {
        let id = try context.sessionID()
        // A form on another site can post text/plain but not JSON without the browser asking
        // first (CORS), which this server never allows: a command is JSON or nothing.
        guard request.headers[.contentType]?.hasPrefix("application/json") == true else {
            throw CollectorError(status: 415, code: "unsupported_type", "a command is sent as application/json")
        }
        if let origin = request.headers[.origin], origin != "http://\(Collector.host(of: request))" {
            throw CollectorError.forbidden("a command comes from the inspector's own page, not \(String(origin.prefix(100)))")
        }
        let body = try await Collector.body(of: request, limit: 64 << 10, seconds: 10)
        let json: JSONValue
        do {
            json = try JSONValue(parsing: body)
            _ = try LiveCommand(json: json)
        } catch let error as LiveWireError {
            throw CollectorError.badRequest(error.message)
        } catch {
            throw CollectorError.badRequest("the command is not JSON")
        }
        // Queued for a session no app has sent, a command would wait for nobody.
        guard try await destination.progress(of: id) != nil else {
            throw CollectorError.notFound("no session \(id.uuidString) here: an app sends its steps before it takes commands")
        }
        let number = try await hub.enqueue(json, for: id)
        return Self.answer(WireLiveQueued(number: number).json.canonicalBytes, type: "application/json", status: .accepted)
    }

    /// `POST /v1/sessions/{id}/blocks`: an app's upload, as to a collector.
    private func upload(_ request: Request, _ context: BasicRequestContext, into destination: LogFileStore, _ hub: LiveHub) async throws -> Response {
        let id = try context.sessionID()
        let body = try await Collector.body(of: request, limit: limits.bodyBytes, seconds: 60)
        let upload = try StoredSessionCopy(uploadBody: body, limits: limits)
        guard upload.id == id else {
            throw CollectorError(status: 422, code: "invalid_value", "the body's session is not the one of the path")
        }
        let received = try await destination.receive(upload)
        await hub.broadcast(
            "steps",
            .object(JSONObject([("session", .string(id.uuidString)), ("through", .int(received.storedThrough)), ("ended", .bool(received.ended))])))
        return try Collector.json(WireProgress(session: nil, received: received))
    }

    /// `GET /v1/sessions/{id}`: how far the inspector holds a session.
    private func progress(_ context: BasicRequestContext, in destination: LogFileStore) async throws -> Response {
        let id = try context.sessionID()
        guard let held = try await destination.progress(of: id) else { throw CollectorError.notFound("no session \(id.uuidString)") }
        return try Collector.json(WireProgress(session: nil, received: held))
    }

    /// `GET /v1/live/sessions/{id}/commands?after=N&wait=S`: the app's long poll, with the
    /// inspector's epoch, which changes when it starts again (its numbers with it).
    private func commands(_ request: Request, _ context: BasicRequestContext, _ hub: LiveHub) async throws -> Response {
        let id = try context.sessionID()
        let after = request.uri.queryParameters.get("after").flatMap(Int.init) ?? 0
        let wait = min(25, max(0, request.uri.queryParameters.get("wait").flatMap(Int.init) ?? 20))
        let commands = await hub.commands(for: id, after: after, waiting: wait)
        let answer = WireLiveCommands(epoch: hub.epoch, commands: commands.map { .init(number: $0.number, command: $0.command) })
        return Self.answer(answer.json.canonicalBytes, type: "application/json")
    }

    /// `POST /v1/live/sessions/{id}/outcomes`: what the app did with a command, for the pages.
    private func outcome(_ request: Request, _ context: BasicRequestContext, _ hub: LiveHub) async throws -> Response {
        let id = try context.sessionID()
        let body = try await Collector.body(of: request, limit: 64 << 10, seconds: 10)
        let outcome: LiveOutcome
        do {
            outcome = try LiveOutcome(json: try JSONValue(parsing: body))
        } catch let error as LiveWireError {
            throw CollectorError.badRequest(error.message)
        } catch {
            throw CollectorError.badRequest("the outcome is not JSON")
        }
        var event = outcome.json
        if case .object(var object) = event {
            object["session"] = .string(id.uuidString)
            event = .object(object)
        }
        await hub.note(outcome: event, for: id)
        return Response(status: .noContent)
    }

    private static func answer(_ bytes: [UInt8], type: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

/// Finishes the hub when the service group shuts down, before the server waits for its
/// requests.
private struct HubStopping: Service {
    let hub: LiveHub

    func run() async throws {
        try? await gracefulShutdown()
        await hub.finish()
    }
}

/// Refuses a request that does not show the pairing code; without one, a request to a host
/// that is not loopback (a page of another site whose name was made to point at 127.0.0.1).
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
private struct Paired: RouterMiddleware {
    typealias Context = BasicRequestContext
    let code: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let code {
            var shown: String? = request.uri.queryParameters.get("code").map { String($0) }
            if let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer ") {
                shown = String(authorization.dropFirst(7))
            }
            guard let shown, Self.same(Array(shown.utf8), Array(code.utf8)) else {
                throw CollectorError(
                    status: 401, code: "unpaired", "show the pairing code `rewind live` printed: ?code=CODE, or Authorization: Bearer CODE")
            }
        } else {
            let host = Collector.host(of: request)
            let name = host.hasPrefix("[") ? String(host.prefix { $0 != "]" }) + "]" : String(host.prefix { $0 != ":" })
            guard ["127.0.0.1", "localhost", "[::1]"].contains(name) else {
                throw CollectorError.forbidden("without a pairing code the inspector answers requests to 127.0.0.1, localhost or [::1] only")
            }
        }
        return try await next(request, context)
    }

    /// Compares in a time that does not depend on where two codes differ.
    private static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
#endif
