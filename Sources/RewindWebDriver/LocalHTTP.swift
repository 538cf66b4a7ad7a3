import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One HTTP/1.1 request to a server on 127.0.0.1, over a plain socket: all that WebDriver
/// needs from HTTP.
///
/// Not URLSession: on Linux it fails every answer of chromedriver with "Failed writing header"
/// (swift-corelibs-foundation issue 4965), because chromedriver writes its header lines as
/// `Content-Length:249`, without a space after the colon, which HTTP allows.
public enum LocalHTTP {
    public struct Response: Sendable {
        public var status: Int
        public var body: Data
    }

    /// Sends `method path` with `body` (as JSON) to `port` and returns the answer; waits at
    /// most `timeout` for each read or write. The blocking calls run on a Dispatch thread,
    /// not on one of Swift concurrency's few threads.
    public static func request(port: Int, method: String, path: String, body: Data?, timeout: TimeInterval) async throws -> Response {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try requestBlocking(port: port, method: method, path: path, body: body, timeout: timeout) })
            }
        }
    }

    /// A request whose answer goes on, as a page's event stream does: read as it comes.
    public struct Stream: Sendable {
        public let socket: Int32

        /// Reads until what came holds `marker` (or the server closes); what came.
        public func read(until marker: String) async throws -> String {
            try await LocalHTTP.blocking {
                var received = Data()
                while !String(decoding: received, as: UTF8.self).contains(marker), let chunk = try LocalHTTP.readSome(from: socket) { received += chunk }
                return String(decoding: received, as: UTF8.self)
            }
        }

        /// Reads until the server closes the connection; what came meanwhile.
        public func readToEnd() async throws -> String {
            try await LocalHTTP.blocking {
                var received = Data()
                while let chunk = try LocalHTTP.readSome(from: socket) { received += chunk }
                return String(decoding: received, as: UTF8.self)
            }
        }

        public func close() {
            _ = LocalHTTP.closeSocket(socket)
        }
    }

    /// Sends `GET path` to `port` and gives the connection to read its answer from; each read
    /// waits at most `timeout`.
    public static func stream(port: Int, path: String, timeout: TimeInterval) async throws -> Stream {
        try await blocking {
            let socket = try openConnection(port: port, timeout: timeout)
            do {
                try writeAll(Data("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8), to: socket)
            } catch {
                _ = LocalHTTP.closeSocket(socket)
                throw error
            }
            return Stream(socket: socket)
        }
    }

    private static func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }

    private static func closeSocket(_ socket: Int32) -> Int32 {
        close(socket)
    }

    private static func requestBlocking(port: Int, method: String, path: String, body: Data?, timeout: TimeInterval) throws -> Response {
        let socket = try openConnection(port: port, timeout: timeout)
        defer { close(socket) }

        var message = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if let body {
            message += "Content-Type: application/json; charset=utf-8\r\nContent-Length: \(body.count)\r\n"
        }
        try writeAll(Data((message + "\r\n").utf8) + (body ?? Data()), to: socket)

        // The head, then as much of the body as Content-Length says, or all until the server closes.
        var received = Data()
        let separator = Data("\r\n\r\n".utf8)
        var headEnd: Range<Data.Index>?
        var expected: Int?
        while true {
            if headEnd == nil, let found = received.range(of: separator) {
                headEnd = found
                expected = contentLength(String(decoding: received[..<found.lowerBound], as: UTF8.self))
            }
            if let headEnd, let expected, received.count - headEnd.upperBound >= expected { break }
            guard let chunk = try readSome(from: socket) else { break }
            received += chunk
        }
        guard let headEnd else { throw LocalHTTPError("the answer ended before its head: \(String(decoding: received.prefix(200), as: UTF8.self))") }

        let head = String(decoding: received[..<headEnd.lowerBound], as: UTF8.self)
        // `HTTP/1.1 200 OK`
        let statusLine = head.prefix { $0 != "\r" }.split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw LocalHTTPError("not an HTTP answer: \(head.prefix(200))") }
        let bodyEnd = expected.map { headEnd.upperBound + $0 } ?? received.endIndex
        return Response(status: status, body: Data(received[headEnd.upperBound..<bodyEnd]))
    }

    /// The Content-Length of a head, if it gives one (names are case-insensitive; a space after
    /// the colon is optional).
    private static func contentLength(_ head: String) -> Int? {
        for line in head.components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == "content-length" {
                return Int(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
        }
        return nil
    }

    private static func openConnection(port: Int, timeout: TimeInterval) throws -> Int32 {
        #if canImport(Glibc)
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw LocalHTTPError("socket: \(String(cString: strerror(errno)))") }
        // Not inherited by processes that other tests start meanwhile.
        _ = fcntl(socket, F_SETFD, FD_CLOEXEC)
        var limit = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif

        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr = in_addr(s_addr: in_addr_t(0x7F00_0001).bigEndian)
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw LocalHTTPError("cannot connect to 127.0.0.1:\(port): \(reason)")
        }
        return socket
    }

    private static func writeAll(_ data: Data, to socket: Int32) throws {
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        var sent = 0
        while sent < data.count {
            let count = data.withUnsafeBytes { send(socket, $0.baseAddress! + sent, data.count - sent, flags) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw LocalHTTPError("cannot send: \(errno == EAGAIN ? "timed out" : String(cString: strerror(errno)))") }
            sent += count
        }
    }

    /// The next bytes, or nil once the server has closed the connection.
    private static func readSome(from socket: Int32) throws -> Data? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                throw LocalHTTPError(errno == EAGAIN || errno == EWOULDBLOCK ? "no answer in time" : "cannot read: \(String(cString: strerror(errno)))")
            }
            return count == 0 ? nil : Data(buffer[..<count])
        }
    }
}

/// A request that got no usable answer.
public struct LocalHTTPError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
