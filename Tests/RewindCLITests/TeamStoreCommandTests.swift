import Foundation
import RewindCore
import RewindLog
import RewindTestSupport
import Testing

/// `rewind push` and `rewind sessions postgres://…` against a real server on loopback.
@Suite(.serialized, .serversBuild, .postgres) struct TeamStoreCommandTests {
    @Test func pushingTheDemoLogTwiceListsItsSevenSessionsOnce() throws {
        let store = try FreshStore()
        let log = try DemoLogFile()
        let first = try TeamStoreBuild.run(["push", log.path, "--to", store.url])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.split(separator: "\n").count == 7 && first.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("pushed ") }, "\(first.stdout)")
        let second = try TeamStoreBuild.run(["push", log.path, "--to", store.url])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("already in the store: ") }, "\(second.stdout)")
        let listed = try TeamStoreBuild.run(["sessions", store.url, "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let local = try TeamStoreBuild.run(["sessions", log.path, "--json"])
        #expect(try uuids(listed.stdout).sorted() == uuids(local.stdout).sorted())
        #expect(try TestServer.psql("SELECT count(*) FROM rewind_session", database: store.name) == "7\n")
    }

    @Test func pullingEverySessionInOrderThenExportingIsTheOriginalsExport() throws {
        let store = try FreshStore()
        let log = try DemoLogFile()
        #expect(try TeamStoreBuild.run(["push", log.path, "--to", store.url]).status == 0)
        let listed =
            try JSONSerialization.jsonObject(with: Data(try TeamStoreBuild.run(["sessions", log.path, "--json"]).stdout.utf8)) as? [[String: Any]] ?? []
        let ids = listed.compactMap { $0["uuid"] as? String }
        #expect(ids.count == 7)
        let folder = try TemporaryDirectory()
        let pulled = folder.path("pulled.rewind")
        for (index, id) in ids.enumerated() {
            let result = try TeamStoreBuild.run(["pull", store.url, "--session", id, "-o", pulled])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("pulled \(id) (") && result.stdout.hasSuffix(" into \(pulled) as #\(index + 1)\n"), "\(result.stdout)")
        }
        let again = try TeamStoreBuild.run(["pull", store.url, "--session", ids[0], "-o", pulled])
        #expect(again.stdout == "\(pulled) holds \(ids[0]) (login-happy) already as #1\n", "\(again.stdout)")
        let original = try TeamStoreBuild.run(["export", log.path])
        let copy = try TeamStoreBuild.run(["export", pulled])
        #expect(copy.status == 0, "\(copy.stderr)")
        #expect(copy.stdout == original.stdout && !copy.stdout.isEmpty)
        #expect(try TeamStoreBuild.run(["check", pulled]).status == 0)
        let unknown = try TeamStoreBuild.run(["pull", store.url, "--session", "nope", "-o", pulled])
        #expect(
            unknown.status == 64 && unknown.stderr == "rewind: \(store.url): no session nope (the store holds 7 sessions; see rewind sessions)\n",
            "\(unknown.stderr)")
    }

    /// A session pulled while it was recorded, pulled again once the store holds more of it,
    /// grows by what it lacked (it stayed at 1,448 of 3,000 steps, and pull said it was there).
    @Test func aSessionPulledWhileItWasRecordedGrowsWhenPulledAgain() throws {
        let store = try FreshStore()
        let folder = try TemporaryDirectory()
        let path = folder.path("live.rewind")
        let pulled = folder.path("pulled.rewind")
        let recorder = try Self.recording(path, name: "live", through: 1_448)
        #expect(try TeamStoreBuild.run(["push", path, "--to", store.url]).status == 0)
        let id = try #require(try LogReader(path: path).session("1").id).uuidString
        let first = try TeamStoreBuild.run(["pull", store.url, "--session", id, "-o", pulled])
        #expect(first.stdout == "pulled \(id) (live): 1448 steps into \(pulled) as #1\n", "\(first.stdout)\(first.stderr)")
        for step in 1_449...3_000 { recorder.record(.tap, state: step, step: step) }
        recorder.close()
        #expect(try TeamStoreBuild.run(["push", path, "--to", store.url]).status == 0)
        let second = try TeamStoreBuild.run(["pull", store.url, "--session", id, "-o", pulled])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout == "pulled \(id) (live): 1552 steps added to #1 of \(pulled), through step 3000\n", "\(second.stdout)")
        let session = try LogReader(path: pulled).session("1")
        #expect(session.eventCount == 3_000 && session.endedAt != nil)
        #expect(try TeamStoreBuild.run(["export", pulled]).stdout == TeamStoreBuild.run(["export", path]).stdout)
        let third = try TeamStoreBuild.run(["pull", store.url, "--session", id, "-o", pulled])
        #expect(third.stdout == "\(pulled) holds \(id) (live) already as #1\n", "\(third.stdout)")
    }

    @Test func sessionsOfTheStoreFilterAsALogsDo() throws {
        let store = try FreshStore()
        let log = try DemoLogFile()
        #expect(try TeamStoreBuild.run(["push", log.path, "--to", store.url]).status == 0)
        for arguments in [["--flow", "login"], ["--flow", "photos"], ["--origin", "dev"], ["--tag", "x=y"], ["--since", "1d"]] {
            let remote = try TeamStoreBuild.run(["sessions", store.url, "--json"] + arguments)
            let local = try TeamStoreBuild.run(["sessions", log.path, "--json"] + arguments)
            #expect(remote.status == 0, "\(remote.stderr)")
            #expect(try uuids(remote.stdout).sorted() == uuids(local.stdout).sorted(), "\(arguments)")
        }
    }

    @Test func aDamagedBlockIsRefusedAtPushNamingItAndTheOtherSessionsGo() throws {
        let store = try FreshStore()
        let log = try DemoLogFile()
        try BlockSurgery(path: log.path).editRecord(session: 2, step: 5, resealing: false) { $0[2] = "tampered" }
        let result = try TeamStoreBuild.run(["push", log.path, "--to", store.url])
        #expect(result.status == 65)
        #expect(result.stderr.contains("session #2 (login-invalid-then-fixed)") && result.stderr.contains("does not match its checksum"), "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 6 && !result.stdout.contains("login-invalid-then-fixed"), "\(result.stdout)")
        #expect(try TestServer.psql("SELECT count(*) FROM rewind_session", database: store.name) == "6\n", "every session but the damaged one")
        #expect(try TestServer.psql("SELECT count(*) FROM rewind_session WHERE name = 'login-invalid-then-fixed'", database: store.name) == "0\n")
    }

    enum Tap: String, Codable, Equatable, Sendable, DescribedAction {
        case tap
    }

    /// A session of taps recorded into `path` through step `last`, committed, its recorder
    /// left open: the session is still being recorded.
    static func recording(_ path: String, name: String, through last: Int) throws -> Recorder<Int, Tap> {
        let recorder = Recorder<Int, Tap>(sink: try SQLiteSink(path: path), session: SessionDescriptor(name: name, flow: "taps"))
        recorder.start(initialState: 0)
        for step in 1...last { recorder.record(.tap, state: step, step: step) }
        recorder.flush()
        return recorder
    }

    @Test func aSessionBeingRecordedIsPushedAsFarAsItsLastCommitAndExtendedLater() throws {
        let store = try FreshStore()
        let folder = try TemporaryDirectory()
        let path = folder.path("live.rewind")
        let recorder = try Self.recording(path, name: "live", through: 10)
        let first = try TeamStoreBuild.run(["push", path, "--to", store.url])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("pushed \(path) #1 (live) ") && first.stdout.hasSuffix(": 10 steps\n"), "\(first.stdout)")
        #expect(try TestServer.psql("SELECT last_step, ended_at IS NULL FROM rewind_session", database: store.name) == "10|t\n")
        for step in 11...25 { recorder.record(.tap, state: step, step: step) }
        recorder.close()
        let second = try TeamStoreBuild.run(["push", path, "--to", store.url])
        #expect(second.stdout.hasSuffix(": 15 steps added, through step 25\n"), "\(second.stdout)")
        #expect(try TestServer.psql("SELECT last_step, event_count, ended_at IS NULL FROM rewind_session", database: store.name) == "25|25|f\n")
        let third = try TeamStoreBuild.run(["push", path, "--to", store.url])
        #expect(third.stdout.hasPrefix("already in the store: "), "\(third.stdout)")
    }

    /// A copy of a log taken at step 1,378, pushed over the session the store holds whole
    /// (3,000 steps), changes nothing and says so: it replaced the session before, and the
    /// store lost 1,622 steps while push said `steps 3001 to 1378 added`.
    @Test func aLogHoldingLessThanTheStoreNeverShrinksIt() throws {
        let store = try FreshStore()
        let folder = try TemporaryDirectory()
        let path = folder.path("whole.rewind")
        let early = folder.path("early.rewind")
        let recorder = try Self.recording(path, name: "whole", through: 1_378)
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: early + suffix)
        }
        for step in 1_379...3_000 { recorder.record(.tap, state: step, step: step) }
        recorder.close()
        #expect(try TeamStoreBuild.run(["push", path, "--to", store.url]).status == 0)
        let pushed = try TeamStoreBuild.run(["push", early, "--to", store.url])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(pushed.stdout.hasPrefix("the store holds more: \(early) #1 (whole) "), "\(pushed.stdout)")
        #expect(pushed.stdout.hasSuffix(": through step 3000, the log through 1378\n"), "\(pushed.stdout)")
        #expect(try TestServer.psql("SELECT last_step, event_count, ended_at IS NULL FROM rewind_session", database: store.name) == "3000|3000|f\n")
        let again = try TeamStoreBuild.run(["push", path, "--to", store.url])
        #expect(again.stdout.hasPrefix("already in the store: "), "\(again.stdout)")
    }

    @Test func namesTagsAndFiltersHoldingSQLAreStoredAndFoundAsData() throws {
        let store = try FreshStore()
        let folder = try TemporaryDirectory()
        let path = folder.path("hostile.rewind")
        let hostile = "'); DROP TABLE rewind_session; --\u{1B}[2J" + String(repeating: "x", count: 10_000)
        let recorder = Recorder<Int, Tap>(
            sink: try SQLiteSink(path: path),
            session: SessionDescriptor(name: hostile, flow: "f'\"", metadata: SessionMetadata(appVersion: hostile, tags: [hostile: hostile, "k": "v"])))
        recorder.start(initialState: 0)
        recorder.record(.tap, state: 1, step: 1)
        recorder.close()
        let pushed = try TeamStoreBuild.run(["push", path, "--to", store.url])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(!pushed.stdout.contains("\u{1B}"), "escaped on the terminal")
        let found = try TeamStoreBuild.run(["sessions", store.url, "--json", "--tag", "\(hostile)=\(hostile)", "--app-version", hostile, "--flow", "f'\""])
        #expect(found.status == 0, "\(found.stderr)")
        let sessions = try JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(sessions.count == 1 && sessions.first?["name"] as? String == hostile)
        let shown = try TeamStoreBuild.run(["show", store.url, "1", "--session", hostile, "--json"])
        #expect(shown.status == 0 && shown.stdout.contains("\"step\":1"), "\(shown.stderr)")
        let missed = try TeamStoreBuild.run(["sessions", store.url, "--json", "--tag", "k=' OR '1'='1"])
        #expect(missed.stdout == "[]\n", "\(missed.stdout)")
        #expect(try TestServer.psql("SELECT count(*) FROM rewind_session", database: store.name) == "1\n")
    }

    @Test(arguments: [
        ("postgres://rewind@127.0.0.1:1/none", 75),
        ("postgres://rewind@127.0.0.1:54329/x?sslmode=bogus", 64),
        ("mysql://x", 64),
    ])
    func aStoreThatCannotBeUsedIsOneLine(location: String, status: Int32) throws {
        let log = try DemoLogFile()
        let result = try TeamStoreBuild.run(["push", log.path, "--to", location])
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("rewind: ") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test func aWrongPasswordIsRefusedWith77() throws {
        let store = try FreshStore()
        let log = try DemoLogFile()
        let result = try TeamStoreBuild.run(["push", log.path, "--to", store.url], environment: ["PGPASSWORD": "wrong", "PGPASSFILE": "/nonexistent"])
        #expect(result.status == 77, "\(result.stderr)")
        #expect(result.stderr.contains("the server refused the connection"), "\(result.stderr)")
    }

    @Test func aStoreOfANewerSchemaIsRefused() throws {
        let store = try FreshStore()
        let log = try DemoLogFile()
        #expect(try TeamStoreBuild.run(["push", log.path, "--to", store.url]).status == 0)
        _ = try TestServer.psql("UPDATE rewind_store SET value = '99' WHERE key = 'schema_version'", database: store.name)
        for arguments in [
            ["sessions", store.url], ["push", log.path, "--to", store.url], ["show", store.url, "1", "--session", "1"],
            ["replay", store.url, "--shard", "1/2"], ["pull", store.url, "--session", "1", "-o", log.folder.path("pulled.rewind")],
        ] {
            let result = try TeamStoreBuild.run(arguments)
            #expect(result.status == 65, "\(arguments)")
            #expect(result.stderr.hasSuffix("a store of a newer Rewind (schema 99; this rewind reads up to 1)\n"), "\(arguments): \(result.stderr)")
        }
    }

    private func uuids(_ json: String) throws -> [String] {
        let sessions = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
        return sessions.compactMap { $0["uuid"] as? String }
    }
}

#if !Servers
/// A `rewind` built without the `Servers` trait says so, in one line.
@Suite struct TeamStoreUnavailableTests {
    @Test func everyVerbOfAStoreSaysTheBuildHasNoStore() throws {
        let log = try DemoLogFile()
        for arguments in [
            ["push", log.path, "--to", "postgres://rewind@127.0.0.1:54329/x"], ["sessions", "postgres://rewind@127.0.0.1:54329/x"],
            ["pull", "postgres://rewind@127.0.0.1:54329/x", "--session", "login-happy", "-o", log.folder.path("pulled.rewind")],
            ["show", "postgres://rewind@127.0.0.1:54329/x", "5"], ["replay", "postgres://rewind@127.0.0.1:54329/x", "--shard", "1/2"],
        ] {
            let result = try RewindBinary.run(arguments)
            #expect(result.status == 69)
            #expect(
                result.stderr
                    == "rewind: postgres://rewind@127.0.0.1:54329/x: this rewind was built without the team store: build it with the Servers trait (swift run --traits Servers rewind …)\n"
            )
        }
    }
}
#endif
