#if Servers
import Foundation
import RewindLog
import RewindTestSupport
import RewindUpload
import Testing

@testable import RewindCollector

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The collector as a server left running for years (issue 49): its own failures told to its
/// log and not to clients, connections that send nothing closed, sessions a crashed app left
/// open let go of, and a token file that two commands change at once.
@MainActor @Suite(.serialized, .serversBuild) struct CollectorHardeningTests {
    /// A token file that cannot be read answers every request 500, to callers without a
    /// token too: the body names no path (it named the token file's), and the server's log
    /// says what failed.
    @Test func aServerFailureIsToldToItsLogAndNotToTheClient() async throws {
        let collector = try await RunningCollector()
        try Data("not a token file".utf8).write(to: URL(fileURLWithPath: collector.tokens))
        let answer = try await collector.request("GET", "/v1/sessions", token: nil)
        let body = String(decoding: answer.body, as: UTF8.self)
        #expect(answer.status == 500 && RunningCollector.errorCode(answer.body) == "tokens_unreadable", "\(body)")
        #expect(body == #"{"error":{"code":"tokens_unreadable","message":"the server failed to answer this; its log says why"}}"#)
        #expect(!body.contains(collector.folder.url.path) && !body.contains(".tokens"))
        let logged = try await collector.serverOutput { $0.contains("tokens_unreadable") }
        #expect(logged.contains("rewind serve: GET /v1/sessions: 500 tokens_unreadable: \(collector.tokens): not a Rewind token file"), "\(logged)")
    }

    /// An upload token is its app's, and anyone can take it out of the app: it writes its own
    /// app's sessions only. The app a body claims is replaced by the token's, and a session
    /// the store holds as another app's is neither extended nor ended (403 `other_app`; app
    /// B's token ended app A's session before, 200).
    @Test func anAppsTokenWritesOnlyItsOwnAppsSessionsInALog() async throws { try await anAppsTokenWritesOnlyItsOwnAppsSessions(postgres: false) }

    @Test(.postgres) func anAppsTokenWritesOnlyItsOwnAppsSessionsInPostgreSQL() async throws {
        try await anAppsTokenWritesOnlyItsOwnAppsSessions(postgres: true)
    }

    private func anAppsTokenWritesOnlyItsOwnAppsSessions(postgres: Bool) async throws {
        let store = postgres ? try FreshStore() : nil
        let collector = try await RunningCollector(store: store?.url)
        let other = try await collector.uploadToken(app: "other")
        let log = try DemoLogFile()
        let reader = try LogReader(path: log.path)
        var session = try reader.storedCopy(of: try reader.session("1"))
        session.id = UUID()
        let end = session.summary.endedAt
        session.summary.endedAt = nil
        session.metadata.app = "claimed"
        func upload(_ copy: StoredSessionCopy, _ token: String) async throws -> (Int, String?) {
            let answer = try await collector.request("POST", "/v1/sessions/\(copy.id.uuidString)/blocks", token: token, body: Data(copy.uploadBody()))
            return (answer.status, RunningCollector.errorCode(answer.body))
        }
        #expect(try await upload(session, collector.upload) == (200, nil))
        var ending = session
        ending.summary.endedAt = end
        #expect(try await upload(ending, other) == (403, "other_app"))
        let progress = try await collector.request("GET", "/v1/sessions/\(session.id.uuidString)", token: collector.upload)
        #expect(String(decoding: progress.body, as: UTF8.self).contains(#""ended":false"#), "app B's token did not end app A's session")
        var claiming = session
        claiming.id = UUID()
        claiming.metadata.app = "tests"
        #expect(try await upload(claiming, other) == (200, nil))
        let listed = try await collector.request("GET", "/v1/sessions", token: collector.read)
        let apps = (try JSONSerialization.jsonObject(with: listed.body) as? [[String: Any]] ?? []).reduce(into: [String: String]()) {
            $0[$1["session"] as? String ?? ""] = $1["app"] as? String
        }
        #expect(apps == [session.id.uuidString: "tests", claiming.id.uuidString: "other"])
    }

    /// A report holds its session several times over: past `--max-report` the collector
    /// answers 413 with the command that makes it on the reader's machine (which works), and
    /// still sends the log, from a file. Before, a report or a log request held any session
    /// four times in memory.
    @Test func aSessionTooLargeForAReportIsAnsweredWithTheCommandThatMakesItInALog() async throws {
        try await aSessionTooLargeForAReportIsAnsweredWithTheCommandThatMakesIt(postgres: false)
    }

    @Test(.postgres) func aSessionTooLargeForAReportIsAnsweredWithTheCommandThatMakesItInPostgreSQL() async throws {
        try await aSessionTooLargeForAReportIsAnsweredWithTheCommandThatMakesIt(postgres: true)
    }

    private func aSessionTooLargeForAReportIsAnsweredWithTheCommandThatMakesIt(postgres: Bool) async throws {
        let store = postgres ? try FreshStore() : nil
        let collector = try await RunningCollector(store: store?.url, extra: ["--max-report", "1024"])
        let log = try DemoLogFile()
        let reader = try LogReader(path: log.path)
        let session = try reader.storedCopy(of: try reader.session("1"))
        let id = session.id.uuidString
        let uploaded = try await collector.request("POST", "/v1/sessions/\(id)/blocks", token: collector.upload, body: Data(session.uploadBody()))
        #expect(uploaded.status == 200)
        let report = try await collector.request("GET", "/sessions/\(id)/report", token: collector.read)
        let error = try #require((try JSONSerialization.jsonObject(with: report.body) as? [String: Any])?["error"] as? [String: Any])
        let command = "rewind pull \(collector.url)/sessions/\(id) -o \(id).rewind && rewind report \(id).rewind -o \(id).html"
        #expect(report.status == 413 && error["code"] as? String == "too_large" && error["command"] as? String == command, "\(error)")
        let pulled = collector.folder.path("\(id).rewind")
        let pull = try await TeamStoreBuild.run(["pull", "\(collector.url)/sessions/\(id)", "-o", pulled], environment: ["REWIND_TOKEN": collector.read])
        #expect(pull.status == 0, "\(pull.stderr)")
        let made = try await TeamStoreBuild.run(["report", pulled, "-o", collector.folder.path("\(id).html")])
        #expect(made.status == 0, "\(made.stderr)")
        let sent = try await collector.request("GET", "/sessions/\(id)/log", token: collector.read)
        #expect(sent.status == 200 && sent.headers["content-length"] == String(sent.body.count))
        let file = collector.folder.path("sent.rewind")
        try sent.body.write(to: URL(fileURLWithPath: file))
        #expect(try LogReader(path: file).sessions().map(\.id) == [session.id])
        #expect(try await collector.request("GET", "/sessions/\(UUID().uuidString)/report", token: collector.read).status == 404)
    }

    /// A line a request, whoever answered it (a route, a refusal, no route), with the token's
    /// id and never its secret, nor what a client sent in a token's place.
    @Test func theAccessLogHasALineARequestAndNoSecret() async throws {
        let folder = try TemporaryDirectory()
        let access = folder.path("access.log")
        let collector = try await RunningCollector(extra: ["--access-log", access])
        let log = try DemoLogFile()
        var copy = try LogReader(path: log.path).storedCopy(of: try LogReader(path: log.path).session("1"))
        copy.id = UUID()
        let forged = "rwt_0123456789abcdef_" + String(repeating: "S", count: 43)
        let requests: [(String, String, String?, Data?, Int)] = [
            ("POST", "/v1/sessions/\(copy.id.uuidString)/blocks", collector.upload, Data(copy.uploadBody()), 200),
            ("GET", "/v1/sessions", collector.read, nil, 200),
            ("GET", "/v1/sessions", forged, nil, 401),
            ("GET", "/v1/sessions/\(copy.id.uuidString)", nil, nil, 401),
            ("GET", "/sessions/\(copy.id.uuidString)/log", collector.upload, nil, 403),
            ("GET", "/no/such/route", collector.read, nil, 404),
        ]
        for (method, path, token, body, status) in requests {
            #expect(try await collector.request(method, path, token: token, body: body).status == status)
        }
        let lines = try await collector.accessLog(access, lines: requests.count)
        #expect(lines.count == requests.count, "\(lines)")
        let uploadID = String(collector.upload.split(separator: "_")[1]), readID = String(collector.read.split(separator: "_")[1])
        let expected = [
            "POST /v1/sessions/\(copy.id.uuidString)/blocks 200 ", "GET /v1/sessions 200 ", "GET /v1/sessions 401 ",
            "GET /v1/sessions/\(copy.id.uuidString) 401 ", "GET /sessions/\(copy.id.uuidString)/log 403 ", "GET /no/such/route 404 ",
        ]
        let ids = [uploadID, readID, "0123456789abcdef", "-", uploadID, readID]
        for (index, line) in lines.enumerated() {
            // 2026-11-29T04:01:02.123Z METHOD PATH STATUS BYTES 12.3ms token=ID
            let fields = line.split(separator: " ")
            #expect(fields.count == 7 && fields[0].hasSuffix("Z") && fields[5].hasSuffix("ms"), "\(line)")
            #expect(line.contains(" " + expected[index]) && line.hasSuffix(" token=\(ids[index])"), "\(line)")
        }
        let text = lines.joined(separator: "\n")
        for secret in [collector.upload, collector.read, forged].map({ String($0.split(separator: "_", maxSplits: 2)[2]) }) {
            #expect(!text.contains(secret))
        }
    }

    /// A body that stops arriving holds its place among the uploads in flight (one here) only
    /// until the body timeout. Two such uploads at once: whichever came second is told at once
    /// to come back (503 `busy`, `Retry-After: 1`), the first gets 408 after the timeout, and
    /// uploads go on.
    @Test func aBodyThatStopsArrivingHoldsItsPlaceOnlyUntilTheBodyTimeout() async throws {
        let collector = try await RunningCollector(extra: ["--body-timeout", "2", "--max-uploads", "1"])
        let log = try DemoLogFile()
        let reader = try LogReader(path: log.path)
        var copy = try reader.storedCopy(of: try reader.session("1"))
        let started = Date()
        var sockets: [Int32] = []
        defer { for socket in sockets { close(socket) } }
        for _ in 0..<2 {
            copy.id = UUID()
            let body = copy.uploadBody()
            let socket = try Self.connect(port: collector.port)
            sockets.append(socket)
            let head =
                "POST /v1/sessions/\(copy.id.uuidString)/blocks HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(collector.upload)\r\n"
                + "Content-Type: application/vnd.rewind.upload.v1\r\nContent-Length: \(body.count)\r\n\r\n"
            let sent = (Array(head.utf8) + body.prefix(10)).withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
            #expect(sent == head.utf8.count + 10)
        }
        let answers = sockets.map { socket in
            // Only stops a hung test: the answer is due after the body timeout, 2 s.
            var wait = timeval(tv_sec: 120, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            var answer = [UInt8](repeating: 0, count: 4_096)
            let count = recv(socket, &answer, answer.count, 0)
            return String(decoding: answer.prefix(max(0, count)), as: UTF8.self)
        }
        let busy = answers.filter { $0.hasPrefix("HTTP/1.1 503") && $0.contains(#""code":"busy""#) && $0.contains("Retry-After: 1") }
        let timedOut = answers.filter { $0.hasPrefix("HTTP/1.1 408") && $0.contains(#""code":"body_timeout""#) }
        #expect(busy.count == 1 && timedOut.count == 1, "\(answers)")
        // Not before the timeout: a bound that a loaded machine cannot break (it only adds).
        #expect(Date().timeIntervalSince(started) >= 2)
        copy.id = UUID()
        let after = try await collector.request("POST", "/v1/sessions/\(copy.id.uuidString)/blocks", token: collector.upload, body: Data(copy.uploadBody()))
        #expect(after.status == 200, "\(String(decoding: after.body, as: UTF8.self))")
    }

    /// 500 connections that send half a header and then nothing: a normal request is still
    /// answered, and every one of them is closed by the server once its idle timeout passes,
    /// where none was before. How fast that request is answered beside them is a figure of
    /// `rewind bench --only collector` (`collector_half_open_request_ms`), not of this test.
    @Test func connectionsThatSendHalfAHeaderAreClosedAfterTheIdleTimeout() async throws {
        let collector = try await RunningCollector(extra: ["--idle-timeout", "3"])
        var sockets: [Int32] = []
        defer { for socket in sockets { close(socket) } }
        let opened = Date()
        for _ in 0..<500 {
            let socket = try Self.connect(port: collector.port)
            sockets.append(socket)
            let half = "POST /v1/sessions/\(UUID().uuidString)/blocks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le"
            #expect(half.withCString { send(socket, $0, strlen($0), 0) } == half.utf8.count)
        }
        let answer = try await collector.request("GET", "/v1/sessions", token: collector.read)
        #expect(answer.status == 200)
        // Each read waits for the server to close (0 bytes). The wait only stops a hung test: a
        // server without the idle timeout never closes them, and then each read gives up at
        // once past it (-1, EAGAIN), counted as open.
        let deadline = Date().addingTimeInterval(120)
        var open = 0
        for socket in sockets {
            // At least a millisecond: a timeout of zero would wait for ever.
            let remaining = max(0.001, deadline.timeIntervalSinceNow)
            var wait = timeval(tv_sec: Int(remaining), tv_usec: .init((remaining - remaining.rounded(.down)) * 1_000_000))
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            var byte: UInt8 = 0
            if recv(socket, &byte, 1, 0) != 0 { open += 1 }
        }
        #expect(open == 0, "connections the server left open")
        // Not before the timeout (3 s after the last of them sent a byte, which came after the
        // first was opened): a bound that a loaded machine cannot break, it only adds.
        #expect(Date().timeIntervalSince(opened) >= 3, "closed before their idle timeout")
    }

    /// A crashed app never sends its session's end: a session without an upload for the
    /// limit's seconds is no longer counted as open, so the app's token can begin others.
    @Test func aSessionWithoutAnUploadForAnHourIsNoLongerOpen() async throws {
        let folder = try TemporaryDirectory()
        let tokens = CollectorTokens(path: folder.path("collector.tokens"))
        let secret = try tokens.create(app: "tests", scope: .upload)
        let clock = TestClock()
        let guardian = RequestGuard(
            tokens: tokens, limits: Collector.Limits(openSessionsPerToken: 2, openSessionSeconds: 3_600), now: { clock.nanoseconds })
        let token = try await guardian.admit("Bearer \(secret)", scope: .upload)
        let (crashed, other, third) = (UUID(), UUID(), UUID())
        for session in [crashed, other] {
            try await guardian.mayBegin(session, token: token) { false }
            await guardian.note(session, token: token, ended: false)
        }
        await #expect(throws: CollectorError.self) { try await guardian.mayBegin(third, token: token) { false } }
        clock.nanoseconds += 1_800 * 1_000_000_000
        await guardian.note(other, token: token, ended: false)
        await #expect(throws: CollectorError.self) { try await guardian.mayBegin(third, token: token) { false } }
        // An hour after the crashed session's last upload, half an hour after the other's.
        clock.nanoseconds += 1_800 * 1_000_000_000
        try await guardian.mayBegin(third, token: token) { false }
        await guardian.note(third, token: token, ended: false)
        await #expect(throws: CollectorError.self) { try await guardian.mayBegin(UUID(), token: token) { false } }
    }

    /// Creating and revoking tokens at once, from two threads as from two commands: every
    /// revocation holds and every token made is in the file. Without the file's lock, a create
    /// that read the file before a revoke wrote it wrote the token back unrevoked.
    @Test func aRevocationIsNeverUndoneByATokenMadeAtTheSameTime() throws {
        let folder = try TemporaryDirectory()
        let tokens = CollectorTokens(path: folder.path("collector.tokens"))
        let revoked = try (0..<60).map { _ in try tokens.create(app: "old", scope: .upload) }
        let ids = revoked.map { String($0.split(separator: "_")[1]) }
        let made = LockedList()
        let done = DispatchSemaphore(value: 0)
        Thread {
            for _ in 0..<60 { if let token = try? tokens.create(app: "new", scope: .upload) { made.append(token) } }
            done.signal()
        }.start()
        Thread {
            for id in ids { _ = try? tokens.revoke(id: id) }
            done.signal()
        }.start()
        done.wait()
        done.wait()
        let stored = try tokens.load()
        #expect(stored.filter { $0.app == "old" && $0.revokedAt == nil }.map(\.id) == [], "revocations undone")
        #expect(made.values.count == 60 && stored.filter { $0.app == "new" && $0.revokedAt == nil }.count == 60)
        #expect(revoked.allSatisfy { CollectorTokens.verify($0, among: stored) == nil })
        #expect(made.values.allSatisfy { CollectorTokens.verify($0, among: stored) != nil })
    }

    private static func connect(port: Int) throws -> Int32 {
        #if canImport(Glibc)
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard socket >= 0, connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        return socket
    }
}

/// A clock a test moves by hand.
private final class TestClock: @unchecked Sendable {
    // Unchecked: the test sets it between the guard's calls, never during one.
    var nanoseconds: UInt64 = 1_000_000_000
}

/// Strings appended from any thread.
private final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ item: String) { lock.withLock { items.append(item) } }
    var values: [String] { lock.withLock { items } }
}
#endif
