import Foundation
import RewindTestSupport
import Testing

/// `rewind replay --shard I/N`: parts of the sessions for parallel CI jobs.
@Suite struct ReplayShardTests {
    /// The sessions each shard of `logs` replays, as `LOG-FILE #N`, read from `--json`.
    static func shards(of logs: [String], count: Int) throws -> [Set<String>] {
        try (1...count).map { index in
            let result = try RewindBinary.run(["replay"] + logs + ["--shard", "\(index)/\(count)", "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            return Set(
                DemoLogFile.jsonLines(result.stdout).map { line in
                    #expect(line?["shard"] as? [String: Int] == ["index": index, "count": count])
                    let file = URL(fileURLWithPath: line?["log"] as? String ?? "").lastPathComponent
                    return "\(file) #\(line?["session"] as? Int ?? 0)"
                })
        }
    }

    @Test func everySessionIsInOneShardWhateverTheLogsAroundIt() async throws {
        let folder = try TemporaryDirectory()
        let (a, b, c) = (folder.path("a.rewind"), folder.path("b.rewind"), folder.path("c.rewind"))
        for log in [a, b, c] { try await DemoLog.record(into: log) }
        let all = Set(["a.rewind", "b.rewind"].flatMap { file in (1...7).map { "\(file) #\($0)" } })

        let shards = try Self.shards(of: [a, b], count: 3)
        #expect(shards.reduce(0) { $0 + $1.count } == 14, "no session twice")
        #expect(shards.reduce(Set()) { $0.union($1) } == all)
        #expect(shards.allSatisfy { !$0.isEmpty })

        // Another log, and the logs in another order: a's and b's sessions stay where they were.
        let more = try Self.shards(of: [c, b, a], count: 3)
        #expect(more.reduce(0) { $0 + $1.count } == 21)
        #expect(more.map { $0.subtracting(["c.rewind"].flatMap { file in (1...7).map { "\(file) #\($0)" } }) } == shards)
    }

    /// The sessions named here pin the identity and the hash: changing either moves
    /// sessions between the shards of every CI that uses them.
    @Test func saysWhichShardAndHowManySessionsItHas() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("demo.rewind")
        try await DemoLog.record(into: log)

        let result = try await RewindBinary.run(["replay", log, "--shard", "3/3"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                ok      \(log) #2 (login-invalid-then-fixed): 28 steps replayed, every state matches (28 with redacted fields compared as placeholders)
                ok      \(log) #4 (photos-happy-browse): 24 steps replayed, every state matches
                ok      \(log) #5 (photos-list-error-retry): 16 steps replayed, every state matches
                shard 3/3: 3 of 7 sessions

                """)
    }

    @Test(arguments: [
        ("0/3", "shard '0/3' is out of range; I goes from 1 to N"),
        ("4/3", "shard '4/3' is out of range; I goes from 1 to N"),
        ("1/0", "shard '1/0' has no parts; N must be at least 1"),
        ("x", "shard 'x' is not I/N, such as 2/4 (the second of four parts)"),
    ])
    func aBadShardIsOneLineAndExit64(shard: String, message: String) throws {
        let result = try RewindBinary.run(["replay", "missing.rewind", "--shard", shard])
        #expect(result.status == 64)
        #expect(result.stderr == "rewind: \(message) (see 'rewind replay --help')\n")
        #expect(result.stdout == "")
    }
}
