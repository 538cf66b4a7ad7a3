import Foundation
import RewindTestSupport
import Testing

/// Every verb that reads a log reads a team store's sessions alike, through `postgres://`.
@Suite(.serialized, .serversBuild, .postgres) struct TeamStoreReadingTests {
    /// A store holding the demo's seven sessions, and the demo's log.
    private struct PushedDemo {
        let store: FreshStore
        let log: DemoLogFile

        init() throws {
            store = try FreshStore()
            log = try DemoLogFile()
            let pushed = try TeamStoreBuild.run(["push", log.path, "--to", store.url])
            guard pushed.status == 0 else { throw TestServer.Failed(stderr: pushed.stderr) }
        }
    }

    @Test func everyReadingVerbPrintsFromTheStoreWhatItPrintsFromTheFile() throws {
        let demo = try PushedDemo()
        let verbs: [[String]] = [
            ["show", "@", "8", "--session", "login-invalid-then-fixed"],
            ["show", "@", "-1", "--session", "3", "--json"],
            ["show", "@", "19", "--session", "photos-happy-browse", "--path", "photos[3]"],
            ["log", "@", "--session", "2"],
            ["diff", "@", "1", "5", "--session", "login-happy"],
            ["history", "@", "status", "--session", "login-invalid-then-fixed"],
            ["find", "@", "--where", #"status == "failed""#],
            ["export", "@"],
            ["export", "@", "--session", "4"],
            ["check", "@"],
            ["replay", "@"],
            ["replay", "@", "--session", "app-full", "--json"],
        ]
        for verb in verbs {
            let file = try TeamStoreBuild.run(verb.map { $0 == "@" ? demo.log.path : $0 })
            let store = try TeamStoreBuild.run(verb.map { $0 == "@" ? demo.store.url : $0 })
            #expect(file.status == 0, "\(verb): \(file.stderr)")
            #expect(store.status == file.status, "\(verb): \(store.stderr)")
            #expect(!store.stdout.isEmpty && store.stdout == file.stdout.replacingOccurrences(of: demo.log.path, with: demo.store.url), "\(verb)")
        }
    }

    @Test func twoShardsOfTheStoreReplayEachSessionOnce() throws {
        let demo = try PushedDemo()
        var replayed: [String] = []
        for shard in ["1/2", "2/2"] {
            let result = try TeamStoreBuild.run(["replay", demo.store.url, "--shard", shard])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            let sessions = lines.filter { $0.hasPrefix("ok ") }
            #expect(lines.last == "shard \(shard): \(sessions.count) of 7 sessions", "\(result.stdout)")
            // `ok      URL #2 (name): …`
            replayed += sessions.map { String($0.split(separator: " ")[2]) }
        }
        #expect(replayed.sorted() == (1...7).map { "#\($0)" }, "\(replayed)")
    }

    @Test func aReadOfTheStoreLeavesNoCopyBehind() throws {
        let demo = try PushedDemo()
        let temporary = try TemporaryDirectory()
        for verb in [["show", demo.store.url, "5", "--session", "2"], ["export", demo.store.url], ["show", demo.store.url, "5"]] {
            _ = try TeamStoreBuild.run(verb, environment: ["TMPDIR": temporary.url.path])
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.url.path) == [], "\(verb)")
        }
    }

    @Test(arguments: [
        (["show", "@", "5"], "rewind: @: holds 7 sessions; choose one with --session NUMBER, NAME or UUID\n"),
        (["log", "@", "--session", "nope"], "rewind: @: no session nope (the store holds 7 sessions; see rewind sessions)\n"),
        (["show", "@", "99", "--session", "1"], "rewind: @: step 99 is out of range: session #1 (login-happy) has steps 0 through 20\n"),
        (
            ["log", "@", "--session", "1", "--follow"],
            "rewind: --follow watches a log on this machine as it is written, not a team store (see 'rewind log --help')\n"
        ),
        (
            ["replay", "@", "--update"],
            "rewind: --update rewrites a log on this machine, not a team store: pull the session into a log first (rewind pull) (see 'rewind replay --help')\n"
        ),
    ])
    func whatTheStoreCannotAnswerIsOneLine(arguments: [String], message: String) throws {
        let demo = try PushedDemo()
        let result = try TeamStoreBuild.run(arguments.map { $0 == "@" ? demo.store.url : $0 })
        #expect(result.status == 64)
        #expect(result.stderr == message.replacingOccurrences(of: "@", with: demo.store.url), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
