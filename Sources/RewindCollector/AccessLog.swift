#if Servers
import Foundation
import Hummingbird
import RewindRendering

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One line a request, for the collector's operator: who uploaded what, and why a device got
/// a 4xx.
///
///     2026-11-29T04:01:02.123Z POST /v1/sessions/6F1C…/blocks 200 87 12.3ms token=0123456789abcdef
///
/// The time (UTC), the method, the path (with the session's id; the client's, so control
/// characters are escaped and it is cut at 256 bytes), the status, the body's bytes (`-` when
/// streamed), the time taken, and the id of the token the request carried (`-` when none), as
/// claimed: a 401 shows the id the client sent, never a secret. Lines go to standard output
/// (the default), to a file opened for appending, or nowhere.
public final class AccessLog: Sendable {
    /// Where the lines go.
    public enum Destination: Sendable, Equatable {
        case standardOutput
        case file(String)
        case off
    }

    private let descriptor: Int32?
    private let closesDescriptor: Bool
    private let lock = NSLock()

    /// Opens `destination`; a file is created (mode 0600) when missing and appended to.
    public init(_ destination: Destination) throws(CollectorError) {
        switch destination {
        case .standardOutput:
            descriptor = STDOUT_FILENO
            closesDescriptor = false
        case .off:
            descriptor = nil
            closesDescriptor = false
        case let .file(path):
            let opened = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            guard opened >= 0 else {
                throw CollectorError(status: 500, code: "access_log", "\(path): cannot open the access log (\(String(cString: strerror(errno))))")
            }
            descriptor = opened
            closesDescriptor = true
        }
    }

    deinit {
        if closesDescriptor, let descriptor { close(descriptor) }
    }

    /// Writes the line of one request, whole (one `write` under a lock, so that lines of
    /// requests served at once never interleave).
    func record(method: String, path: String, status: Int, bytes: Int?, seconds: Double, token: String?, at date: Date) {
        guard let descriptor else { return }
        let line = Self.line(method: method, path: path, status: status, bytes: bytes, seconds: seconds, token: token, at: date)
        let data = Array(line.utf8)
        lock.withLock {
            var written = 0
            while written < data.count {
                let result = data[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else { return }
                written += result
            }
        }
    }

    /// - Parameter token: the id of the request's token, from ``tokenID(_:)`` or a sign-in.
    static func line(method: String, path: String, status: Int, bytes: Int?, seconds: Double, token: String?, at date: Date) -> String {
        let shownPath = TerminalText.escaped(String(decoding: path.utf8.prefix(256), as: UTF8.self))
        let milliseconds = (seconds * 10_000).rounded() / 10
        let shownBytes = bytes.map(String.init) ?? "-"
        return "\(timestamp(date)) \(TerminalText.escaped(method)) \(shownPath) \(status) \(shownBytes) \(milliseconds)ms token=\(token ?? "-")\n"
    }

    /// The id part of `Bearer rwt_ID_SECRET` when it has the form of one (16 hex digits), nil
    /// otherwise: the secret never reaches the log, nor anything a client wrote in its place.
    static func tokenID(_ authorization: String?) -> String? {
        guard let authorization, authorization.hasPrefix("Bearer rwt_") else { return nil }
        let id = authorization.dropFirst("Bearer rwt_".count).prefix(17)
        guard id.count == 17, id.last == "_" else { return nil }
        let digits = id.dropLast()
        guard digits.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return nil }
        return String(digits)
    }

    private static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let millis = Int((date.timeIntervalSince1970 - Double(seconds)) * 1_000)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour),
            Int(parts.tm_min), Int(parts.tm_sec), min(999, max(0, millis)))
    }
}

/// Writes each request's line once its answer is made, whatever answered it (a route, a
/// refusal, the router's own 404): the outermost middleware.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct AccessLogging<Context: RequestContext>: RouterMiddleware {
    let log: AccessLog
    /// The sessions page's sign-ins, and the name of their cookie: a page's request names the
    /// token it signed in with, as an API request names the one it carries.
    var signIns: (sessions: any SignIns, cookie: String)?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = DispatchTime.now().uptimeNanoseconds
        let date = Date()
        var token = AccessLog.tokenID(request.headers[.authorization])
        // Read before the answer, which may end the sign-in (sign-out); a sign-in's id is not
        // kept alive by it.
        if token == nil, let signIns, let cookie = request.cookies[signIns.cookie]?.value {
            token = try? await signIns.sessions.tokenID(of: cookie, refreshing: false)
        }
        func record(_ status: Int, _ bytes: Int?) {
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            log.record(method: request.method.rawValue, path: request.uri.path, status: status, bytes: bytes, seconds: seconds, token: token, at: date)
        }
        do {
            let response = try await next(request, context)
            // A sign-in names the token it took: its answer sets the cookie.
            if token == nil, let signIns, let cookie = Self.cookieSet(by: response, named: signIns.cookie) {
                token = try? await signIns.sessions.tokenID(of: cookie, refreshing: false)
            }
            record(response.status.code, response.body.contentLength)
            return response
        } catch {
            // Only what no inner middleware turned into an answer: Hummingbird answers 500.
            record(500, nil)
            throw error
        }
    }

    /// The value `response` sets the cookie `name` to; nil when it sets none (or clears it).
    private static func cookieSet(by response: Response, named name: String) -> String? {
        for field in response.headers[values: .setCookie] where field.hasPrefix(name + "=") {
            let value = field.dropFirst(name.count + 1).prefix { $0 != ";" }
            if !value.isEmpty { return String(value) }
        }
        return nil
    }
}
#endif
