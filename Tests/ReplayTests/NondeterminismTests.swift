import Foundation
import PhotoApp
import RewindCore
import RewindJSON
import RewindLog
import RewindReplay
import Testing

/// A reducer that tosses a coin is reported as nondeterministic however the coin falls; one
/// whose behaviour changed is never called nondeterministic; and `minimize` writes states that
/// the reducer, once fixed, replays.
@MainActor
@Suite struct NondeterminismTests {
    let folder: TemporaryDirectory
    let log: String

    init() async throws {
        folder = try TemporaryDirectory()
        log = folder.path("login.rewind")
        try await recordScript("login-invalid-then-fixed", into: log)
    }

    /// The login flow whose reducer, from its `k`-th action on, writes a coin toss into the error
    /// message, which the recording never holds: every replay diverges at step `k`.
    static func tossing(from k: Int, _ toss: @escaping @Sendable () -> Bool) -> ReplayRegistry {
        loginFlow { PlantedBug(base: $0, fromAction: k) { $0.errorMessage = toss() ? "heads" : "tails" } }
    }

    /// A coin of its own for each reducer the flow makes, from `seed`: the same tosses on every
    /// run of the test.
    static func seededTossing(from k: Int, seed: UInt64) -> ReplayRegistry {
        loginFlow { base in
            let generator = Locked(SeededGenerator(seed: seed))
            return PlantedBug(base: base, fromAction: k) { state in
                state.errorMessage = generator.withLock { Bool.random(using: &$0) } ? "heads" : "tails"
            }
        }
    }

    /// `nondeterministic at step 9: ["errorMessage"]`, for comparing many outcomes at once.
    static func summary(_ outcome: SessionReplay.Outcome) -> String {
        switch outcome {
        case let .nondeterministic(step, _, _, changes): "nondeterministic at step \(step): \(changes.map(\.path.description))"
        case let .diverged(step, _, _, changes): "diverged at step \(step): \(changes.map(\.path.description))"
        default: "\(outcome)"
        }
    }

    @Test func aSeededCoinTossAtStepKIsNondeterministicInEveryTry() throws {
        // Two runs agree half the time, which reported half of these as divergences.
        let outcomes = try (0..<100 as Range<UInt64>).map { seed in
            Self.summary(try #require(try Replayer(registry: Self.seededTossing(from: 9, seed: seed)).replay(path: log).first).outcome)
        }
        #expect(outcomes == Array(repeating: #"nondeterministic at step 9: ["errorMessage"]"#, count: 100))
    }

    @Test func theSystemsBoolRandomAtStepKIsNondeterministicInEveryTry() throws {
        // The system's generator: a try passes for a divergence with probability 2^-20, so ten
        // tries fail by chance about once in 100,000 runs (the seeded test above makes 100).
        let outcomes = try (0..<10).map { _ in
            Self.summary(try #require(try Replayer(registry: Self.tossing(from: 20) { Bool.random() }).replay(path: log).first).outcome)
        }
        #expect(outcomes == Array(repeating: #"nondeterministic at step 20: ["errorMessage"]"#, count: 10))
        let replay = try #require(try Replayer(registry: Self.tossing(from: 20) { Bool.random() }).replay(path: log).first)
        let lines = ReplayReport.lines(replay, style: .plain)
        #expect(
            lines[0]
                == "FAILED  \(log) #1 (login-invalid-then-fixed): nondeterministic at step 20 (login  didUpdatePassword): the same state and action gave two different states, so the reducer reads the clock, a UUID, randomness or unordered iteration:"
        )
        #expect(lines.dropFirst() == [#"  ~ errorMessage: "heads" → "tails""#] || lines.dropFirst() == [#"  ~ errorMessage: "tails" → "heads""#])
    }

    @Test(arguments: [1, 9, 28])
    func aGeneratorSeededAfreshForEachTossIsADivergenceAtK(k: Int) throws {
        // What a seeded generator made at each call gives is the same every run: a regression.
        let flows = Self.tossing(from: k) {
            var generator = SeededGenerator(seed: 7)
            return Bool.random(using: &generator)
        }
        let outcomes = try (0..<10).map { _ in Self.summary(try #require(try Replayer(registry: flows).replay(path: log).first).outcome) }
        #expect(outcomes == Array(repeating: #"diverged at step \#(k): ["errorMessage"]"#, count: 10))
    }

    @Test func updateLeavesACoinTossingSessionAloneInEveryTry() throws {
        // Only the rejected tap tosses, so that no later step gives the toss away.
        let rewritten = try (0..<20 as Range<UInt64>).map { seed in
            let flows = loginFlow { base in
                let generator = Locked(SeededGenerator(seed: seed))
                return PlantedBug(base: base, fromAction: 1) { state in
                    guard state.username == "al", state.errorMessage != nil else { return }
                    state.errorMessage = generator.withLock { Bool.random(using: &$0) } ? "heads" : "tails"
                }
            }
            return try Replayer(registry: flows).update(path: log).map(\.rewritten)
        }
        #expect(rewritten == Array(repeating: [false], count: 20))
        #expect(try Replayer(registry: SeedFlows.registry).replay(path: log).map(\.outcome) == [.matched])
    }

    @Test func minimizeKeepsTheRecordedStateOfATossSoTheFixedReducerReplaysIt() throws {
        // From a tap until the username is edited, the reducer tosses the username's validity,
        // which the recording holds too: a toss that falls as recorded shows nothing, so which
        // tries show the problem hangs on the coin, and a shortened session run once more could
        // come out clean.
        var written: [String] = []
        for seed in 0..<20 as Range<UInt64> {
            // One coin for every try, as `Bool.random()` is: a try run again tosses anew.
            let generator = Locked(SeededGenerator(seed: seed))
            let flows = loginFlow { base in
                PlantedBug(base: base, fromAction: 1) { state in
                    if state.isUsernameValid != nil { state.isUsernameValid = generator.withLock { Bool.random(using: &$0) } }
                }
            }
            let actions = try RecordedActions(log: log, session: nil, registry: flows)
            let shrunk: ShrunkSession
            do {
                shrunk = try SessionShrinker(actions, goal: .diverging).shrink()
            } catch {
                guard error.kind == .notShown else { throw error }
                written.append("not shown")
                continue
            }
            let out = folder.path("small-\(seed).rewind")
            _ = try shrunk.write(to: out)
            let fixed = try #require(try Replayer(registry: SeedFlows.registry).replay(path: out).first)
            guard case .nondeterministic(let index, _) = shrunk.finding, index == shrunk.steps.count - 1 else {
                Issue.record("seed \(seed): \(shrunk.finding)")
                continue
            }
            written.append(fixed.passed ? "\(shrunk.steps.count) steps, replays clean" : "\(fixed.outcome)")
        }
        // Seed 16's tosses fall as recorded at both taps of the whole session: nothing to show.
        // Tries whose tosses fell as recorded leave some results longer than the three steps
        // that suffice (the short username, the short password, the tap).
        #expect(written.map { $0.prefix(1) } == ["4", "4", "5", "3", "4", "4", "5", "3", "5", "3", "4", "5", "4", "5", "4", "5", "n", "3", "3", "3"])
        #expect(written.filter { $0.hasSuffix(" steps, replays clean") }.count == 19)
    }
}
