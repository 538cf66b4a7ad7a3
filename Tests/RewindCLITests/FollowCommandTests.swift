import Foundation
import RewindTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `log --follow` and `find --follow`: the real `rewind` follows a log in its own process while
/// the test records into it, a run of steps at a time, waiting for the follower's output or
/// exit (never for a guessed while) between runs.
@MainActor
@Suite struct FollowCommandTests {
    /// The step of each JSON line of `output`, in order.
    static func steps(_ output: String) -> [Int] {
        output.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: #""step":"#) else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
    }

    @Test func logFollowPrintsEachOfAThousandStepsOnceInOrderAndEndsWithTheSession() async throws {
        let folder = try TemporaryDirectory()
        let live = try LiveLoginSession(path: folder.path("live.rewind"))
        live.record(100)
        let follower = try BackgroundRewind(["log", live.path, "--follow", "--json"], in: folder)
        for run in 1..<10 {
            // The follower has printed every step committed so far before more are recorded.
            let seen = try await follower.waitForOutput { Self.steps($0).last == run * 100 }
            #expect(Self.steps(seen).last == run * 100, "\(seen.suffix(300))")
            #expect(try follower.exitStatus() == nil, "still following: the session has not ended")
            live.record(100)
        }
        try live.end()
        #expect(try await follower.waitForExit() == 0, "the session's end ends the follower")
        #expect(Self.steps(follower.output) == Array(1...1_000), "each step once, in order")
        #expect(follower.output == (try await RewindBinary.run(["log", live.path, "--json"])).stdout, "the same lines as once it is over")
    }

    @Test func logFollowPrintsTheTimelineSoFarThenEachStepInText() async throws {
        let folder = try TemporaryDirectory()
        let live = try LiveLoginSession(path: folder.path("live.rewind"))
        live.record(2)
        let follower = try BackgroundRewind(["log", live.path, "--follow", "--from", "-1"], in: folder)
        let lineTwo = #"    2   +0.000s  login  didUpdateUsername("u2")  username: "u1" → "u2""#
        _ = try await follower.waitForOutput { $0.contains(lineTwo) }
        live.record(1)
        try live.end()
        #expect(try await follower.waitForExit() == 0)
        #expect(
            follower.output == """
                \(lineTwo)
                    3   +0.000s  login  didUpdateUsername("u3")  username: "u2" → "u3"

                """)
    }

    @Test func withoutSessionTheNewestSessionIsFollowed() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("two.rewind")
        let old = try LiveLoginSession(path: path, name: "old")
        old.record(3)
        try old.end()
        let live = try LiveLoginSession(path: path, name: "new")
        let follower = try BackgroundRewind(["log", path, "--follow", "--json"], in: folder)
        live.record(1)
        // Ended before the follower looked, the session would be passed over for the next.
        _ = try await follower.waitForOutput { Self.steps($0) == [1] }
        live.record(1)
        try live.end()
        #expect(try await follower.waitForExit() == 0)
        #expect(Self.steps(follower.output) == [1, 2])
        #expect(follower.output.split(separator: "\n").allSatisfy { $0.contains(#""session":2"#) }, "\(follower.output)")
    }

    @Test func startedBeforeARecordingItFollowsThatRecordingNotTheEndedOneBeforeIt() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("app.rewind")
        let done = try LiveLoginSession(path: path, name: "done")
        done.record(5)
        try done.end()
        let follower = try BackgroundRewind(["log", path, "--follow", "--json"], in: folder)
        let live = try LiveLoginSession(path: path, name: "next")
        live.record(100)
        // Whether it looked before this session began or after, it follows it: not ended yet.
        _ = try await follower.waitForOutput { Self.steps($0).last == 100 }
        for _ in 1..<10 { live.record(100) }
        try live.end()
        #expect(try await follower.waitForExit() == 0)
        #expect(Self.steps(follower.output) == Array(1...1_000), "each step of the new recording once, in order")
        #expect(!follower.output.contains(#""session":1"#), "the ended session before it is passed over")
    }

    @Test func ctrlCEndsAFollowCleanlyWith130() async throws {
        let folder = try TemporaryDirectory()
        let live = try LiveLoginSession(path: folder.path("live.rewind"))
        live.record(5)
        let follower = try BackgroundRewind(["log", live.path, "--follow", "--json"], in: folder)
        _ = try await follower.waitForOutput { Self.steps($0).last == 5 }
        kill(follower.pid, SIGINT)
        #expect(try await follower.waitForExit() == 130)
        #expect(Self.steps(follower.output) == Array(1...5), "what was printed stays, and nothing else: \(follower.output)")
        try live.end()
    }

    @Test func findFollowReportsMatchesAsTheyAreRecorded() async throws {
        let folder = try TemporaryDirectory()
        let live = try LiveLoginSession(path: folder.path("live.rewind"))
        let finder = try BackgroundRewind(["find", live.path, "--where", #"username == "x""#, "--follow"], in: folder)
        live.type("x")
        _ = try await finder.waitForOutput { $0.contains("step 1") }
        live.type("a")
        live.type("x")
        _ = try await finder.waitForOutput { $0.contains("step 3") }
        #expect(try finder.exitStatus() == nil)
        try live.end()
        #expect(try await finder.waitForExit() == 0)
        #expect(finder.output == "#1 live  step 1  didUpdateUsername\n#1 live  step 3  didUpdateUsername\n")
    }

    @Test func findFollowWithFirstEndsAtTheFirstMatchAndWithoutAnyExits1() async throws {
        let folder = try TemporaryDirectory()
        let live = try LiveLoginSession(path: folder.path("live.rewind"))
        let first = try BackgroundRewind(["find", live.path, "--where", #"username == "x""#, "--follow", "--first", "--json"], in: folder)
        let none = try BackgroundRewind(["find", live.path, "--where", #"username == "nobody""#, "--follow"], in: folder)
        live.record(3)
        live.type("x")
        #expect(try await first.waitForExit() == 0, "the match ends it while the session is still recorded")
        #expect(first.output == #"{"action":"didUpdateUsername","name":"live","session":1,"step":4}"# + "\n")
        #expect(try none.exitStatus() == nil)
        try live.end()
        #expect(try await none.waitForExit() == 1, "no match by the session's end")
        #expect(none.output == "")
    }

    @Test(arguments: [
        (["log", "LOG", "--follow", "--to", "3"], 64, "--follow prints steps until the session ends, so it takes no --to (see 'rewind log --help')"),
        (["log", "missing.rewind", "--follow"], 66, "missing.rewind: no such file"),
        (["find", "LOG", "--where", "status", "--follow", "--session", "nope"], 64, "LOG: no session nope (the log holds #1 (live))"),
        (["step", "LOG", "--follow", "--at", "9"], 64, "LOG: step 9 is out of range: session #1 (live) has steps 0 through 2"),
    ])
    func followRefusesWhatItCannotDoInOneLine(arguments: [String], status: Int32, message: String) async throws {
        let folder = try TemporaryDirectory()
        let live = try LiveLoginSession(path: folder.path("live.rewind"))
        live.record(2)
        try live.end()
        let result = try await RewindBinary.run(arguments.map { $0 == "LOG" ? live.path : $0 }, in: folder.url)
        #expect(result.status == status)
        #expect(result.stderr == "rewind: \(message.replacingOccurrences(of: "LOG", with: live.path))\n")
        #expect(result.stdout == "")
    }
}
