import Dispatch
import Foundation
import RewindUpload

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A normal request to the collector beside ``halfOpenConnections`` connections that sent half
/// a header and then nothing (issue 59): `GET /v1/sessions` with a read token, timed alone and
/// then beside them, in one run. The test of the idle timeout asserts only that they are
/// closed and the request answered; how fast is this figure's.
extension BenchmarkSuite {
    var halfOpenConnections: Int { 500 }
    var collectorRequests: Int { quick ? 21 : 201 }

    func measureCollector(into result: inout BenchmarkResult, progress: (String) -> Void) async throws {
        guard let rewind = serversBuild(for: "collector", figures: "the collector's", notes: &result.notes) else { return }
        progress("a request to the collector, alone and beside \(halfOpenConnections) connections that send half a header")
        // An idle timeout far past the run's length: the half-open connections stay open
        // while the requests beside them are timed.
        let collector = try BenchCollector(
            rewind: rewind, store: path("collector.rewind"), tokens: path("collector.tokens"), read: true, extra: ["--idle-timeout", "600"])
        defer { collector.stop() }
        guard let port = URL(string: collector.url)?.port else { throw BenchmarkError("rewind serve listens on no port: \(collector.url)") }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: URL(string: collector.url + "/v1/sessions")!)
        request.setValue("Bearer \(collector.token)", forHTTPHeaderField: "Authorization")
        func timed() async throws -> Double {
            let begin = DispatchTime.now().uptimeNanoseconds
            let (_, response) = try await session.data(for: request)
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e6
            guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw BenchmarkError("GET /v1/sessions was not answered 200") }
            return elapsed
        }
        var alone: [Double] = []
        for _ in 0..<collectorRequests { alone.append(try await timed()) }

        var sockets: [Int32] = []
        defer { for socket in sockets { close(socket) } }
        for _ in 0..<halfOpenConnections {
            let socket = try Self.halfOpenConnection(port: UInt16(port))
            sockets.append(socket)
        }
        var beside: [Double] = []
        for _ in 0..<collectorRequests { beside.append(try await timed()) }

        let (lone, crowded) = (Percentiles(alone), Percentiles(beside))
        result.add("collector_request_ms", lone.p50, "GET /v1/sessions, alone, p50 (ms)", baseline: "the request alone")
        result.add("collector_request_p99_ms", lone.p99, "GET /v1/sessions, alone, p99 (ms)", baseline: "the request alone")
        result.add("collector_half_open_request_ms", crowded.p50, "GET /v1/sessions beside \(halfOpenConnections) half-open connections, p50 (ms)")
        result.add("collector_half_open_request_p99_ms", crowded.p99, "GET /v1/sessions beside \(halfOpenConnections) half-open connections, p99 (ms)")
        // Bound: the idle timeout the test runs with, 3 s, over the request alone's p99.
        result.add(
            "ratio_collector_half_open", crowded.p99 / max(0.001, lone.p99),
            "ratio: p99 of a request beside \(halfOpenConnections) half-open connections / alone (×)")
    }

    /// A loopback connection to `port` that has sent the start of an upload's header, and
    /// then nothing.
    private static func halfOpenConnection(port: UInt16) throws -> Int32 {
        let socket = try LoopbackSocket.connect(port: port, server: "rewind serve")
        let half = "POST \(WireRoute.blocks.path(UUID())) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le"
        guard half.withCString({ send(socket, $0, strlen($0), 0) }) == half.utf8.count else {
            close(socket)
            throw BenchmarkError("cannot send half a header to rewind serve: error \(errno)")
        }
        return socket
    }
}
