import Dispatch
import Foundation
import RewindJSON
import RewindUpload

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a live page of `rewind live` does, timed: it follows `GET /live/events` and, when a
/// session grows, loads `GET /live/sessions/{id}/data?after=N`, the steps after those it holds,
/// one load at a time and again when the session grew meanwhile, as report.js does. Over plain loopback sockets, on a thread of its
/// own: the measured app's main thread stays its own.
struct LivePageWatcher: Sendable {
    /// When each step reached the page, in `DispatchTime` uptime nanoseconds, index 0 for step 1.
    struct Timings: Sendable {
        /// When an event said the session holds the step.
        var announced: [UInt64]
        /// When a load of the session's data that holds the step was complete: when the page
        /// can draw it.
        var shown: [UInt64]
        /// The bytes of the answers' bodies, all loads together.
        var bytes = 0
        /// The loads made.
        var loads = 0
    }

    let port: UInt16

    /// Starts watching, on a thread of its own, until `steps` steps of `session` are shown, at
    /// most `seconds` (the events of the inspector's other sessions, such as a run before
    /// still closing, are not this page's); signals `connected` once the event stream is open, before any step
    /// is taken. The task's value is the timings.
    func start(session: UUID, steps: Int, seconds: Double, connected: DispatchSemaphore) -> Task<Timings, any Error> {
        let (result, continuation) = AsyncStream.makeStream(of: Result<Timings, any Error>.self)
        Thread {
            continuation.yield(Result { try run(session: session, steps: steps, seconds: seconds, connected: connected) })
            continuation.finish()
        }.start()
        return Task {
            for await timings in result { return try timings.get() }
            throw BenchmarkError("the page's thread ended without a word")
        }
    }

    private func run(session followed: UUID, steps: Int, seconds: Double, connected: DispatchSemaphore) throws -> Timings {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        let events = try connect()
        defer { close(events) }
        try send(events, "GET \(WireRoute.liveEvents) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n")
        var stream = HTTPStream()
        while !stream.headerRead {
            guard DispatchTime.now().uptimeNanoseconds < deadline else { throw BenchmarkError("rewind live sent no event stream") }
            guard let bytes = try receive(events) else { continue }
            guard !bytes.isEmpty else { throw BenchmarkError("rewind live closed the event stream") }
            stream.take(bytes)
        }
        connected.signal()
        var timings = Timings(announced: Array(repeating: 0, count: steps), shown: Array(repeating: 0, count: steps))
        var announced = 0, shown = 0
        var session: String?
        while shown < steps {
            guard DispatchTime.now().uptimeNanoseconds < deadline else {
                throw BenchmarkError("the page saw \(shown) of \(steps) steps within \(Int(seconds)) s")
            }
            guard let bytes = try receive(events) else { continue }
            guard !bytes.isEmpty else { throw BenchmarkError("rewind live closed the event stream") }
            stream.take(bytes)
            let now = DispatchTime.now().uptimeNanoseconds
            for data in stream.events() {
                guard let event = try? JSONValue(parsing: data), case .int(let through)? = event[JSONPath("through")],
                    case .string(let id)? = event[JSONPath("session")], UUID(uuidString: id) == followed
                else { continue }
                session = id
                while announced < min(through, steps) {
                    timings.announced[announced] = now
                    announced += 1
                }
            }
            // One load, of all the stream announced so far; the events that came during it
            // are read next, and start the next load.
            if announced > shown, let session {
                let path = WireRoute.liveData.pattern.replacingOccurrences(of: ":" + WireRoute.id, with: session)
                // From the last step held until the answer holds the session's last.
                var through = shown, last = announced
                repeat {
                    let body = try load(path + "?after=\(through)")
                    timings.bytes += body.count
                    timings.loads += 1
                    guard let part = try? JSONValue(parsing: body), case .int(let held)? = part[JSONPath("through")],
                        case .int(let lastStep)? = part[JSONPath("lastStep")], held > through || held >= lastStep
                    else { throw BenchmarkError("rewind live answered a load after step \(through) with no steps") }
                    (through, last) = (held, lastStep)
                } while through < last
                let loaded = DispatchTime.now().uptimeNanoseconds
                while shown < min(through, steps) {
                    timings.shown[shown] = loaded
                    shown += 1
                }
            }
        }
        return timings
    }

    /// `GET path` on a connection of its own, read to its end: the answer's body.
    private func load(_ path: String) throws -> [UInt8] {
        let socket = try connect()
        defer { close(socket) }
        try send(socket, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        var answer = HTTPStream()
        // A second without bytes is read as nothing yet; 30 of them in a row end the wait.
        var silences = 0
        while silences < 30 {
            guard let bytes = try receive(socket) else {
                silences += 1
                continue
            }
            if bytes.isEmpty { return answer.takeBody() }
            answer.take(bytes)
            silences = 0
        }
        throw BenchmarkError("rewind live did not finish \(path) within 30 s")
    }

    /// Reads wait a second at most, so that the deadline is looked at.
    private func connect() throws -> Int32 {
        try LoopbackSocket.connect(port: port, receiveTimeout: 1, server: "rewind live")
    }

    private func send(_ socket: Int32, _ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { write(socket, $0.baseAddress! + sent, $0.count - sent) }
            guard count > 0 else { throw BenchmarkError("rewind live closed the connection: error \(errno)") }
            sent += count
        }
    }

    /// What the socket has, empty at its end; nil after a second without bytes.
    private func receive(_ socket: Int32) throws -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
        if count < 0 {
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { throw BenchmarkError("reading from rewind live: error \(errno)") }
            return nil
        }
        return Array(buffer[0..<count])
    }
}

/// An HTTP/1.1 response read in pieces: its header, then its body's bytes, chunked or not,
/// cut into server-sent events.
private struct HTTPStream {
    private var bytes: [UInt8] = []
    private(set) var headerRead = false
    private var chunked = false
    private var body: [UInt8] = []

    mutating func take(_ piece: [UInt8]) {
        bytes += piece
        if !headerRead {
            guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
            let header = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).lowercased()
            chunked = header.contains("transfer-encoding: chunked")
            headerRead = true
            bytes.removeFirst(end.upperBound)
        }
        guard chunked else {
            body += bytes
            bytes = []
            return
        }
        // Each chunk: its size in hex, CRLF, the bytes, CRLF.
        while let line = bytes.firstRange(of: Array("\r\n".utf8)) {
            let size = Int(String(decoding: bytes[..<line.lowerBound], as: UTF8.self).split(separator: ";").first ?? "", radix: 16) ?? 0
            guard bytes.count >= line.upperBound + size + 2 else { return }
            body += bytes[line.upperBound..<(line.upperBound + size)]
            bytes.removeFirst(line.upperBound + size + 2)
        }
    }

    /// The body received so far, taken.
    mutating func takeBody() -> [UInt8] {
        defer { body = [] }
        return body
    }

    /// The data of each whole event received since the last call.
    mutating func events() -> [String] {
        var events: [String] = []
        while let end = body.firstRange(of: Array("\n\n".utf8)) {
            let event = String(decoding: body[..<end.lowerBound], as: UTF8.self)
            body.removeFirst(end.upperBound)
            let data = event.split(separator: "\n").filter { $0.hasPrefix("data:") }.map { $0.dropFirst(5).drop { $0 == " " } }
            events.append(data.joined(separator: "\n"))
        }
        return events
    }
}
