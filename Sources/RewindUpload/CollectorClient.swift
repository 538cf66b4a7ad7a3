import Foundation
import RewindCore
import RewindLog

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A collector elsewhere, spoken to over HTTP with URLSession (docs/collector.md): what an
/// app's ``Uploader`` and `rewind push --to https://…` send to, and `rewind pull` fetches from.
///
/// Each request is tried again after a network failure, a 408, 429, 500, 502, 503 or 504,
/// waiting as ``RetryPolicy`` says; any other refusal is thrown at once.
public final class CollectorClient: SessionDestination {
    /// The collector's root, `http(s)://host[:port]`.
    public let root: URL
    private let token: String
    private let session: URLSession
    public let retry: RetryPolicy

    public init(root: URL, token: String, retry: RetryPolicy = RetryPolicy(), session: URLSession = .shared) {
        self.root = root
        self.token = token
        self.retry = retry
        self.session = session
    }

    public var name: String { root.absoluteString }

    /// Whether `text` names a collector (an `http://` or `https://` URL) rather than a path or
    /// another store.
    public static func isLocation(_ text: String) -> Bool {
        text.hasPrefix("https://") || text.hasPrefix("http://")
    }

    /// The collector's root and the session a URL names: `https://host[:port]` alone, or
    /// `https://host[:port]/sessions/UUID` (what a shared link reads).
    public static func parse(_ text: String) throws(StoreError) -> (root: URL, session: UUID?) {
        guard isLocation(text), let components = URLComponents(string: text), let host = components.host, !host.isEmpty,
            components.user == nil, components.password == nil, components.query == nil
        else {
            throw StoreError(
                .invalidLocation, location: text, "not a collector's URL: give http(s)://HOST[:PORT] or http(s)://HOST[:PORT]/sessions/UUID")
        }
        var root = URLComponents()
        root.scheme = components.scheme
        root.host = host
        root.port = components.port
        let parts = components.path.split(separator: "/")
        var id: UUID?
        if !parts.isEmpty {
            guard parts.count == 2, parts[0] == "sessions", let parsed = UUID(uuidString: String(parts[1])) else {
                throw StoreError(.invalidLocation, location: text, "a collector's URL names a session as /sessions/UUID")
            }
            id = parsed
        }
        guard let url = root.url else { throw StoreError(.invalidLocation, location: text, "not a collector's URL") }
        return (url, id)
    }

    public func receive(_ upload: StoredSessionCopy) async throws -> ReceivedBlocks {
        var request = URLRequest(url: WireRoute.blocks.url(on: root, upload.id))
        request.httpMethod = "POST"
        request.setValue(StoredSessionCopy.uploadMediaType, forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(upload.uploadBody())
        let (data, _) = try await send(request)
        return try decode(WireProgress.self, data).received
    }

    public func progress(of id: UUID) async throws -> ReceivedBlocks? {
        let request = URLRequest(url: WireRoute.progress.url(on: root, id))
        do {
            let (data, _) = try await send(request)
            return try decode(WireProgress.self, data).received
        } catch StoreError.noSuchSession {
            return nil
        }
    }

    /// A link that opens session `id`'s report in any browser without a token, for
    /// `expiresIn` seconds (a week by default, a year at most): for a bug report filed from
    /// the app. The token must be the upload token of the app that sent the session.
    public func link(for id: UUID, expiresIn seconds: Int = 7 * 86_400) async throws -> URL {
        var components = URLComponents(url: WireRoute.link.url(on: root, id), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "expires", value: String(seconds))]
        guard let url = components?.url else { throw StoreError(.invalidLocation, location: name, "cannot ask for a link") }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        let (data, _) = try await send(request)
        guard let link = URL(string: try decode(WireLink.self, data).link) else {
            throw StoreError(.unavailable, location: name, "the collector's link is not a URL")
        }
        return link
    }

    /// Keeps `verdict` beside session `id` on the collector (a read token: CI replays what it
    /// reads); false when the collector holds no such session.
    public func record(_ verdict: ReplayVerdict, for id: UUID) async throws -> Bool {
        var request = URLRequest(url: WireRoute.verdict.url(on: root, id))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try WireJSON.encode(
            WireVerdict(outcome: verdict.outcome.rawValue, step: verdict.step, build: verdict.build, at: Int(verdict.at.timeIntervalSince1970)))
        do {
            _ = try await send(request)
            return true
        } catch StoreError.noSuchSession {
            return false
        }
    }

    /// The session `id` as a `.rewind` log of its own (`what` "log") or its HTML inspector
    /// (`what` "report"), as the collector sends it.
    public func fetch(_ id: UUID, _ what: String) async throws -> Data {
        let route: WireRoute
        switch what {
        case "log": route = .log
        case "report": route = .report
        default: throw StoreError(.invalidLocation, location: name, "a collector sends a session's log or its report, not \(what.debugDescription)")
        }
        return try await send(URLRequest(url: route.url(on: root, id))).0
    }

    public func close() async {}

    /// Sends `request` with the token, trying again as ``retry`` says; the body of a 2xx.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        var request = request
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.timeoutInterval = 60
        var random = SystemRandomNumberGenerator()
        var attempt = 0
        while true {
            switch try await tryOnce(request) {
            case let .answered(data, response):
                return (data, response)
            case let .failed(failure, retryAfter):
                attempt += 1
                guard attempt < retry.attempts else { throw failure }
                let delay = retry.delay(afterAttempt: attempt - 1, retryAfter: retryAfter, using: &random)
                try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
            }
        }
    }

    private enum Attempt {
        case answered(Data, HTTPURLResponse)
        /// A failure worth trying again, and how long the collector asked to wait.
        case failed(any Error, retryAfter: Double?)
    }

    /// One try of `request`: its 2xx answer, a failure worth another try, or (thrown) one that is not.
    private func tryOnce(_ request: URLRequest) async throws -> Attempt {
        let data: Data, response: URLResponse
        do {
            #if canImport(FoundationNetworking)
            // Never cancelled on Linux: swift-corelibs-foundation's URLSessionTask.cancel() races
            // the task's own end and traps ("a task that in not in the registry"; `rewind bench`
            // crashed so, stopping an upload loop). The request runs to its end, 60 s at most,
            // in a task of its own, which a caller's cancellation does not reach.
            (data, response) = try await Task { [session] in try await session.data(for: request) }.value
            #else
            (data, response) = try await session.data(for: request)
            #endif
        } catch {
            return .failed(StoreError(.unavailable, location: name, "cannot reach the collector: \(error.localizedDescription)"), retryAfter: nil)
        }
        guard let http = response as? HTTPURLResponse else { throw StoreError(.unavailable, location: name, "the answer is not HTTP") }
        if (200..<300).contains(http.statusCode) { return .answered(data, http) }
        let failure = refusal(http, data)
        guard [408, 429, 500, 502, 503, 504].contains(http.statusCode) else { throw failure }
        return .failed(failure, retryAfter: http.value(forHTTPHeaderField: "Retry-After").flatMap(Double.init))
    }

    /// The error a refusal's answer says: the store's own ``UploadError``, as a store on this
    /// machine throws it, when the collector's store refused the upload (its code one of
    /// ``UploadError/Kind``); a ``StoreError`` otherwise.
    private func refusal(_ response: HTTPURLResponse, _ data: Data) -> any Error {
        let status = response.statusCode
        let body = WireRefusal(body: data)
        let message = body.map { "\($0.message) (HTTP \(status))" } ?? "HTTP \(status)"
        if let refused = body?.uploadError(status: status) {
            return UploadError(refused.kind, "\(name): \(message)", storedThrough: refused.storedThrough)
        }
        let kind: StoreError.Kind =
            switch status {
            case 401, 403: .unauthorized
            case 404: .noSuchSession
            case 408, 429, 500...: .unavailable
            default: .refused
            }
        return StoreError(kind, location: name, message, status: status, code: body?.code)
    }

    private func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw StoreError(.unavailable, location: name, "the collector's answer is not what the protocol says")
        }
    }
}
