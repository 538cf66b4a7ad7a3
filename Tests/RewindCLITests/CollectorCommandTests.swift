import Foundation
import RewindLog
import RewindTestSupport
import RewindUpload
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `rewind serve` and `rewind push --to http://…`, the real binary and the real server on
/// loopback: the issue's check, then each kind of bad input refused with nothing written.
@MainActor @Suite(.serialized, .serversBuild) struct CollectorCommandTests {
    /// A copy whose steps disagree with the collector's is refused, as a log and a team store
    /// refuse it, though the collector holds as many steps: `push` sends the blocks it holds
    /// for the collector to compare. Before, it said "already in the store", exit 0.
    @Test func pushingASessionThatDisagreesIsRefusedNamingItsSteps() async throws {
        let collector = try await RunningCollector()
        let folder = try TemporaryDirectory()
        let log = try DemoLogFile()
        let export = try await TeamStoreBuild.run(["export", log.path, "--session", "1"])
        #expect(export.status == 0, "\(export.stderr)")
        // The same session, one late step's origin changed: its block's bytes differ.
        var lines = export.stdout.split(separator: "\n").map(String.init)
        lines[lines.count - 2] = lines[lines.count - 2].replacingOccurrences(of: #""origin":"login""#, with: #""origin":"elsewhere""#)
        #expect(lines[lines.count - 2].contains("elsewhere"))
        try (lines.joined(separator: "\n") + "\n").write(toFile: folder.path("changed.jsonl"), atomically: true, encoding: .utf8)
        let changed = folder.path("changed.rewind")
        #expect(try await TeamStoreBuild.run(["import", folder.path("changed.jsonl"), "-o", changed]).status == 0)
        let pushed = try await TeamStoreBuild.run(["push", log.path, "--to", collector.url, "--token", collector.upload])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let before = storeBytes(collector)
        let refused = try await TeamStoreBuild.run(["push", changed, "--to", collector.url, "--token", collector.upload])
        #expect(refused.status == 65)
        #expect(refused.stdout == "")
        #expect(
            refused.stderr.hasPrefix("rewind: \(changed) #1 (login-happy) ")
                && refused.stderr.hasSuffix(": \(collector.url): the store holds other steps under the block of steps 1 through 20 (HTTP 409)\n"),
            "\(refused.stderr)")
        #expect(storeBytes(collector) == before, "a refused push wrote nothing")
        // The same copy again, and the log's own: nothing added, said as the other stores say it.
        let again = try await TeamStoreBuild.run(["push", log.path, "--to", collector.url, "--token", collector.upload])
        #expect(again.status == 0 && again.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("already in the store: ") }, "\(again.stdout)")
    }

    @Test func pushingTheDemoTwiceOverHTTPStoresItsSevenSessionsOnce() async throws {
        let collector = try await RunningCollector()
        let log = try DemoLogFile()
        let first = try await TeamStoreBuild.run(["push", log.path, "--to", collector.url, "--token", collector.upload])
        #expect(first.status == 0, "\(first.stderr)")
        let lines = first.stdout.split(separator: "\n")
        #expect(lines.count == 7 && lines.allSatisfy { $0.hasPrefix("pushed \(log.path) #") && $0.hasSuffix(" steps") }, "\(first.stdout)")
        let second = try await TeamStoreBuild.run(["push", log.path, "--to", collector.url, "--token", collector.upload])
        #expect(second.status == 0 && second.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("already in the store: ") }, "\(second.stdout)")
        #expect(try await sessionIDs(collector.store) == sessionIDs(log.path))
        let before = storeBytes(collector)
        let wrong = try await TeamStoreBuild.run(["push", log.path, "--to", collector.url, "--token", "rwt_0123456789abcdef_wrong"])
        #expect(wrong.status == 77)
        #expect(wrong.stderr == "rewind: \(collector.url): no valid token: send Authorization: Bearer TOKEN (HTTP 401)\n", "\(wrong.stderr)")
        #expect(storeBytes(collector) == before, "a refused push wrote nothing")
        #expect(try await TeamStoreBuild.run(["check", collector.store]).status == 0)
    }

    @Test func aSharedSessionIsServedToAReadTokenOnly() async throws {
        let collector = try await RunningCollector()
        let log = try DemoLogFile()
        #expect(try await TeamStoreBuild.run(["push", log.path, "--to", collector.url, "--token", collector.upload]).status == 0)
        let id = try await sessionIDs(log.path)[0]
        let page = try await collector.request("GET", "/sessions/\(id)/report", token: collector.read)
        #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(String(decoding: page.body, as: UTF8.self).contains("login-happy"))
        #expect(page.headers["content-security-policy"]?.hasPrefix("default-src 'none'") == true)
        let anonymous = try await collector.request("GET", "/sessions/\(id)/report", token: nil)
        #expect(anonymous.status == 401 && RunningCollector.errorCode(anonymous.body) == "unauthorized" && anonymous.headers["www-authenticate"] == "Bearer")
        let unknownPath = try await collector.request("GET", "/../../etc/passwd", token: nil)
        #expect(unknownPath.status == 401 && RunningCollector.errorCode(unknownPath.body) == "unauthorized", "a path no route takes, without a token")
        let uploader = try await collector.request("GET", "/sessions/\(id)/log", token: collector.upload)
        #expect(uploader.status == 403 && RunningCollector.errorCode(uploader.body) == "forbidden")
        // The read verbs and pull take the session's URL, with the token in REWIND_TOKEN or --token.
        let shown = try await TeamStoreBuild.run(["show", "\(collector.url)/sessions/\(id)", "5"], environment: ["REWIND_TOKEN": collector.read])
        let local = try await TeamStoreBuild.run(["show", log.path, "--session", "1", "5"])
        #expect(shown.status == 0 && shown.stdout == local.stdout, "\(shown.stderr)")
        let folder = try TemporaryDirectory()
        let pulled = try await TeamStoreBuild.run(["pull", "\(collector.url)/sessions/\(id)", "--token", collector.read, "-o", folder.path("bug.rewind")])
        #expect(
            pulled.status == 0 && pulled.stdout == "pulled \(id) (login-happy): 20 steps into \(folder.path("bug.rewind")) as #1\n",
            "\(pulled.stdout)\(pulled.stderr)")
        let export = try await TeamStoreBuild.run(["export", folder.path("bug.rewind")])
        let original = try await TeamStoreBuild.run(["export", log.path, "--session", "1"])
        // The same session, but for its app: a collector stores the upload token's (here `tests`).
        let recordedApp = #""metadata":{"app":"rewind","#
        #expect(original.stdout.contains(recordedApp))
        #expect(export.stdout == original.stdout.replacingOccurrences(of: recordedApp, with: #""metadata":{"app":"tests","#) && !export.stdout.isEmpty)
        let noToken = try await TeamStoreBuild.run(["show", "\(collector.url)/sessions/\(id)", "5"], environment: ["REWIND_TOKEN": ""])
        #expect(noToken.status == 77, "\(noToken.stderr)")
    }

    /// Each kind of bad upload: a clear 4xx with a JSON body, nothing written, the server up.
    @Test(arguments: BadUpload.allCases) func aBadUploadIsRefusedAndWritesNothing(_ bad: BadUpload) async throws {
        let collector = try await RunningCollector(extra: ["--max-body", "\(1 << 20)", "--verify-blocks"])
        let log = try DemoLogFile()
        // The store holds one session already, so that "nothing written" has something to keep.
        #expect(try await TeamStoreBuild.run(["push", log.path, "--to", collector.url, "--token", collector.upload]).status == 0)
        let before = storeBytes(collector)
        let reader = try LogReader(path: log.path)
        var copy = try reader.storedCopy(of: try reader.session("1"))
        copy.id = UUID()
        let (path, token, body, stream) = try bad.request(copy)
        let answer = try await collector.request("POST", path, token: token ?? collector.upload, body: body, stream: stream, headers: bad.headers)
        #expect(answer.status == bad.status, "\(String(decoding: answer.body, as: UTF8.self))")
        #expect(RunningCollector.errorCode(answer.body) == bad.code, "\(String(decoding: answer.body, as: UTF8.self))")
        #expect(storeBytes(collector) == before, "a refused upload wrote nothing")
        // Still up, and still taking a good upload.
        copy.id = UUID()
        let good = try await collector.request("POST", "/v1/sessions/\(copy.id.uuidString)/blocks", token: collector.upload, body: Data(copy.uploadBody()))
        #expect(good.status == 200, "\(String(decoding: good.body, as: UTF8.self))")
    }

    @Test func aTokenPastItsRateIsToldWhenToComeBack() async throws {
        // One request every 1,000 s, in bursts of 1: the second and third are over the rate,
        // however slow a loaded machine answers (at 1 a second, three requests took over a
        // second in CI).
        let collector = try await RunningCollector(extra: ["--rate", "0.001"])
        let id = UUID().uuidString
        var statuses: [Int] = []
        var retryAfter: [Int] = []
        for _ in 0..<3 {
            let answer = try await collector.request("GET", "/v1/sessions/\(id)", token: collector.upload)
            statuses.append(answer.status)
            if answer.status == 429 { retryAfter.append(Int(answer.headers["retry-after"] ?? "") ?? 0) }
        }
        #expect(statuses == [404, 429, 429])
        // The seconds until the bucket holds a request again: at most 1,000, and no more the
        // second time.
        #expect(retryAfter.count == 2 && retryAfter.allSatisfy { (1...1_000).contains($0) } && retryAfter[1] <= retryAfter[0], "\(retryAfter)")
    }

    @Test func aTokenPastItsOpenSessionsBeginsNoOtherUntilOneEnds() async throws {
        let collector = try await RunningCollector(extra: ["--open-sessions", "1"])
        let log = try DemoLogFile()
        let reader = try LogReader(path: log.path)
        var first = try reader.storedCopy(of: try reader.session("1"))
        let ended = first.summary.endedAt
        first.summary.endedAt = nil
        var second = first
        second.id = UUID()
        func upload(_ copy: StoredSessionCopy) async throws -> (Int, String?) {
            let answer = try await collector.request(
                "POST", "/v1/sessions/\(copy.id.uuidString)/blocks", token: collector.upload, body: Data(copy.uploadBody()))
            return (answer.status, RunningCollector.errorCode(answer.body))
        }
        #expect(try await upload(first) == (200, nil))
        #expect(try await upload(second) == (429, "too_many_open_sessions"))
        first.summary.endedAt = ended
        #expect(try await upload(first) == (200, nil), "the first session's end: a duplicate block and its end")
        #expect(try await upload(second) == (200, nil))
    }

    @Test func withACertificateItServesHTTPSOnly() async throws {
        let folder = try TemporaryDirectory()
        let (certificate, key) = (folder.path("cert.pem"), folder.path("key.pem"))
        let made = try Self.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1",
            ])
        #expect(made.status == 0, "\(made.output)")
        let collector = try await RunningCollector(extra: ["--tls-cert", certificate, "--tls-key", key])
        // Python's client trusts the certificate alone, and checks the host against it.
        let script = """
            import ssl, sys, urllib.request, urllib.error
            context = ssl.create_default_context(cafile=sys.argv[1])
            request = urllib.request.Request(sys.argv[2], headers={"Authorization": "Bearer " + sys.argv[3]})
            try:
                urllib.request.urlopen(request, context=context)
            except urllib.error.HTTPError as error:
                print(error.code, error.read().decode())
            """
        let url = "https://127.0.0.1:\(collector.port)/v1/sessions/\(UUID().uuidString)"
        let answer = try Self.run("/usr/bin/env", ["python3", "-c", script, certificate, url, collector.upload])
        #expect(answer.output.hasPrefix("404 {\"error\":{\"code\":\"not_found\""), "\(answer.output)")
        let plain = try? await collector.request("GET", "/v1/sessions/\(UUID().uuidString)", token: collector.upload)
        #expect(plain == nil, "plain HTTP to the TLS port gets no answer")
        // The sessions page's cookie under TLS: __Host-, Secure; the Origin names https.
        let signIn = """
            import http.client, ssl, sys
            context = ssl.create_default_context(cafile=sys.argv[1])
            connection = http.client.HTTPSConnection("127.0.0.1", int(sys.argv[2]), context=context)
            headers = {"Origin": "https://127.0.0.1:" + sys.argv[2], "Content-Type": "application/x-www-form-urlencoded"}
            connection.request("POST", "/signin", body="token=" + sys.argv[3], headers=headers)
            answer = connection.getresponse()
            print(answer.status, answer.getheader("Set-Cookie"))
            """
        let cookie = try Self.run("/usr/bin/env", ["python3", "-c", signIn, certificate, String(collector.port), collector.read])
        let expected = #"^303 __Host-rewind=[A-Za-z0-9_-]{43}; Path=/; Max-Age=28800; HttpOnly; SameSite=Strict; Secure\n$"#
        #expect(cookie.output.range(of: expected, options: .regularExpression) != nil, "\(cookie.output)")
        let missing = try await TeamStoreBuild.run(["serve", "--store", folder.path("s.rewind"), "--tls-cert", folder.path("none.pem"), "--tls-key", key])
        #expect(missing.status == 66 && missing.stderr.hasPrefix("rewind: cannot read the TLS certificate \(folder.path("none.pem"))"), "\(missing.stderr)")
    }

    private static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func anUploaderPastTheRateWaitsAsTheCollectorSaysAndFinishes() async throws {
        // Bursts of 10 at 5 a second: the demo's 7 sessions take 14 requests at once, so the
        // last are answered 429 with Retry-After: 1, and the push goes on after each wait.
        let collector = try await RunningCollector(extra: ["--rate", "5"])
        let log = try DemoLogFile()
        let pushed = try await TeamStoreBuild.run(["push", log.path, "--to", collector.url, "--token", collector.upload])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(try await sessionIDs(collector.store) == sessionIDs(log.path))
    }

    @Test func aRetryWaitsAJitteredBackoffOrWhatTheCollectorAsksForWithinItsBounds() {
        let policy = RetryPolicy(attempts: 8, base: 0.25, cap: 30, longestRetryAfter: 120)
        var random = SystemRandomNumberGenerator()
        for attempt in 0..<12 {
            let ceiling = min(30, 0.25 * Double(1 << attempt))
            let waits = (0..<200).map { _ in policy.delay(afterAttempt: attempt, retryAfter: nil, using: &random) }
            #expect(waits.allSatisfy { (0...ceiling).contains($0) }, "attempt \(attempt)")
            #expect(Set(waits).count > 100, "jittered, not fixed")
        }
        #expect(policy.delay(afterAttempt: 0, retryAfter: 5, using: &random) == 5, "Retry-After, when it asks for longer")
        #expect(policy.delay(afterAttempt: 0, retryAfter: 3_600, using: &random) == 120, "never past longestRetryAfter")
    }

    @Test func aRevokedTokenIsRefusedByTheRunningCollector() async throws {
        let collector = try await RunningCollector()
        let id = UUID().uuidString
        #expect(try await collector.request("GET", "/v1/sessions/\(id)", token: collector.upload).status == 404)
        let tokenID = String(collector.upload.split(separator: "_", maxSplits: 2)[1])
        let revoked = try await TeamStoreBuild.run(["serve", "token", "revoke", "--store", collector.store, "--tokens", collector.tokens, tokenID])
        #expect(revoked.status == 0 && revoked.stdout == "revoked \(tokenID)\n")
        #expect(try await collector.request("GET", "/v1/sessions/\(id)", token: collector.upload).status == 401)
        let listed = try await TeamStoreBuild.run(["serve", "token", "list", "--store", collector.store, "--tokens", collector.tokens])
        #expect(listed.stdout.contains("\(tokenID)  tests  upload  made ") && listed.stdout.contains(" revoked "), "\(listed.stdout)")
        let file = try String(contentsOfFile: collector.tokens, encoding: .utf8)
        #expect(!listed.stdout.contains("rwt_") && !file.contains(collector.upload.split(separator: "_", maxSplits: 2)[2]), "no secret is kept or shown")
        let attributes = try FileManager.default.attributesOfItem(atPath: collector.tokens)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test(.postgres) func pushingToACollectorOnAPostgresStoreStoresTheSessionsOnce() async throws {
        let store = try FreshStore()
        let collector = try await RunningCollector(store: store.url)
        let log = try DemoLogFile()
        #expect(try await TeamStoreBuild.run(["push", log.path, "--to", collector.url, "--token", collector.upload]).status == 0)
        #expect(try await TeamStoreBuild.run(["push", log.path, "--to", collector.url, "--token", collector.upload]).status == 0)
        #expect(try TestServer.psql("SELECT count(*) FROM rewind_session", database: store.name) == "7\n")
        let listed = try await TeamStoreBuild.run(["sessions", store.url, "--json"])
        #expect(try await uuids(listed.stdout).sorted() == sessionIDs(log.path).sorted())
        // Names holding SQL are values bound into statements: stored and listed as themselves.
        let reader = try LogReader(path: log.path)
        var hostile = try reader.storedCopy(of: try reader.session("1"))
        hostile.id = UUID()
        hostile.summary.name = "x'); DROP TABLE rewind_session; --"
        hostile.metadata.tags = ["'; DELETE FROM rewind_block; --": "\"\\"]
        let sent = try await collector.request(
            "POST", "/v1/sessions/\(hostile.id.uuidString)/blocks", token: collector.upload, body: Data(hostile.uploadBody()))
        #expect(sent.status == 200, "\(String(decoding: sent.body, as: UTF8.self))")
        let stored = try await TeamStoreBuild.run(["sessions", store.url, "--json"])
        let named = (try JSONSerialization.jsonObject(with: Data(stored.stdout.utf8)) as? [[String: Any]] ?? []).first {
            $0["uuid"] as? String == hostile.id.uuidString
        }
        #expect(named?["name"] as? String == hostile.summary.name)
        #expect((named?["metadata"] as? [String: Any])?["tags"] as? [String: String] == hostile.metadata.tags)
        #expect(try TestServer.psql("SELECT count(*) FROM rewind_session", database: store.name) == "8\n")
        let unknown = try await collector.request("GET", "/sessions/\(UUID().uuidString)/log", token: collector.read)
        #expect(unknown.status == 404 && RunningCollector.errorCode(unknown.body) == "not_found", "\(String(decoding: unknown.body, as: UTF8.self))")
        let replayed = try await TeamStoreBuild.run(["replay", store.url])
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
    }

    private func sessionIDs(_ path: String) async throws -> [String] {
        try uuids(try await TeamStoreBuild.run(["sessions", path, "--json"]).stdout)
    }

    private func uuids(_ json: String) throws -> [String] {
        let sessions = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
        return sessions.compactMap { $0["uuid"] as? String }
    }

    private func storeBytes(_ collector: RunningCollector) -> [Data] {
        ["", "-wal"].map { (try? Data(contentsOf: URL(fileURLWithPath: collector.store + $0))) ?? Data() }
    }
}

/// The bad uploads of the issue's list, each made from a good one.
enum BadUpload: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case malformedBody, wrongToken, oversizedBody, oversizedChunkedBody, zipBombBody, zipBombBlock, hugeBlockSize, wrongChecksum
    case blocksForAnUnknownSession, pathTraversalID, encodedTraversalID, tenKilobyteName, bodyOfAnotherSession, initialStateOffItsDigest
    // Each of these two trapped the collector (the step after 2⁶³−1) before steps were bounded.
    case blockEndingAtTheLastStep, gapEndingAtTheLastStep

    var testDescription: String { rawValue }

    var status: Int {
        switch self {
        case .malformedBody: 400
        case .wrongToken: 401
        case .oversizedBody, .oversizedChunkedBody, .hugeBlockSize: 413
        case .zipBombBlock, .wrongChecksum, .tenKilobyteName, .bodyOfAnotherSession, .initialStateOffItsDigest, .blockEndingAtTheLastStep,
            .gapEndingAtTheLastStep:
            422
        case .zipBombBody: 415
        case .blocksForAnUnknownSession: 409
        case .pathTraversalID: 404
        case .encodedTraversalID: 400
        }
    }

    var code: String {
        switch self {
        case .malformedBody: "malformed_body"
        case .wrongToken: "unauthorized"
        case .oversizedBody, .oversizedChunkedBody, .hugeBlockSize: "too_large"
        case .zipBombBlock, .wrongChecksum: "bad_checksum"
        case .zipBombBody: "unsupported_encoding"
        case .tenKilobyteName, .bodyOfAnotherSession, .initialStateOffItsDigest, .blockEndingAtTheLastStep, .gapEndingAtTheLastStep:
            "invalid_value"
        case .blocksForAnUnknownSession: "out_of_order"
        case .pathTraversalID: "not_found"
        case .encodedTraversalID: "invalid_id"
        }
    }

    /// Headers beside the token.
    var headers: [String: String] { self == .zipBombBody ? ["Content-Encoding": "deflate"] : [:] }

    /// The path, the token (nil: the collector's upload token), the body, and whether it is
    /// sent chunked.
    func request(_ copy: StoredSessionCopy) throws -> (String, String?, Data, Bool) {
        var copy = copy
        let path = "/v1/sessions/\(copy.id.uuidString)/blocks"
        switch self {
        case .malformedBody:
            return (path, nil, Data("RWB1 this is not an upload".utf8), false)
        case .wrongToken:
            return (path, "rwt_0123456789abcdef_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", Data(copy.uploadBody()), false)
        case .oversizedBody:
            return (path, nil, Data(count: (1 << 20) + 1), false)
        case .oversizedChunkedBody:
            return (path, nil, Data(count: 3 << 20), true)
        case .zipBombBody:
            // 64 MB of zeros deflate to 64 KB: a body sent compressed is refused unread.
            return (path, nil, Data(BlockSurgery.Block.deflate([UInt8](repeating: 0, count: 64 << 20))), false)
        case .zipBombBlock:
            // The same as a block that says it inflates to its own size (--verify-blocks).
            copy.blocks[0].data = BlockSurgery.Block.deflate([UInt8](repeating: 0, count: 64 << 20))
            return (path, nil, Data(copy.uploadBody()), false)
        case .hugeBlockSize:
            copy.blocks[0].size = 1 << 30
            return (path, nil, Data(copy.uploadBody()), false)
        case .wrongChecksum:
            var body = copy.uploadBody()
            body[body.count - 10] ^= 0xFF
            return (path, nil, Data(body), false)
        case .blocksForAnUnknownSession:
            // The session's second block alone: the collector holds none of its steps before.
            let first = copy.blocks[0]
            copy.blocks = [
                StoredSessionCopy.Block(
                    firstStep: first.lastStep + 1, lastStep: first.lastStep + 1 + first.lastStep - first.firstStep, startsWithKeyframe: false,
                    lastTime: first.lastTime, size: first.size, data: first.data)
            ]
            return (path, nil, Data(copy.uploadBody()), false)
        case .pathTraversalID:
            return ("/v1/sessions/../../../etc/passwd/blocks", nil, Data(copy.uploadBody()), false)
        case .encodedTraversalID:
            return ("/v1/sessions/..%2F..%2Fetc%2Fpasswd/blocks", nil, Data(copy.uploadBody()), false)
        case .tenKilobyteName:
            copy.summary.name = String(repeating: "n", count: 10_240)
            return (path, nil, Data(copy.uploadBody()), false)
        case .bodyOfAnotherSession:
            return ("/v1/sessions/\(UUID().uuidString)/blocks", nil, Data(copy.uploadBody()), false)
        case .initialStateOffItsDigest:
            copy.initialState = #"{"username":"mallory"}"#
            return (path, nil, Data(copy.uploadBody()), false)
        case .blockEndingAtTheLastStep:
            let first = copy.blocks[0]
            copy.blocks = [
                StoredSessionCopy.Block(
                    firstStep: first.firstStep, lastStep: Int(Int64.max), startsWithKeyframe: first.startsWithKeyframe, lastTime: first.lastTime,
                    size: first.size, data: first.data),
                first,
            ]
            return (path, nil, Data(copy.uploadBody()), false)
        case .gapEndingAtTheLastStep:
            copy.gaps = [LoggedGap(steps: copy.blocks[copy.blocks.count - 1].lastStep + 1...Int(Int64.max), reason: "lost")]
            return (path, nil, Data(copy.uploadBody()), false)
        }
    }
}
