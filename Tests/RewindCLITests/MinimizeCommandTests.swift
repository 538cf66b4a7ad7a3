import Foundation
import PhotoApp
import RewindCLI
import RewindCore
import RewindLog
import RewindReplay
import Testing

/// `minimize` on long random sessions with planted bugs: each shrinks to the few steps that
/// matter, and the result still shows the problem.
@Suite struct MinimizeCommandTests {
    /// The login reducer with the line that clears the error on editing removed: editing after
    /// a rejected form keeps the old message.
    struct EditingKeepsTheError: Reducer, Sendable {
        let base: LoginFeature

        func reduce(into state: inout LoginState, action: LoginAction) -> Effect<LoginAction> {
            let (message, status) = (state.errorMessage, state.status)
            let effect = base.reduce(into: &state, action: action)
            switch action {
            case .didUpdateUsername, .didUpdatePassword:
                state.errorMessage = message
                state.status = status
            default:
                break
            }
            return effect
        }
    }

    static let planted = ReplayRegistry([
        ReplayFlow(LoginFlow.name) { EditingKeepsTheError(base: LoginFeature(backend: FakeBackend(seed: 0, clock: SimulatedClock(start: .testEpoch)))) }
    ])

    /// Records a random login session of `steps` into `path`.
    @MainActor
    static func recordRandomLogin(steps: Int, seed: UInt64, into path: String) async throws {
        let sink = try SQLiteSink(path: path)
        let script = try #require(SeedFlows.randomScript(flow: LoginFlow.name, seed: seed, steps: steps))
        await script.run(host: RecordingHost(sink: sink), start: .testEpoch)
        try sink.close()
    }

    @Test func aPlantedBugInTwentyThousandStepsShrinksToAFewThatStillDiverge() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("random.rewind"), small = folder.path("small.rewind")
        try await Self.recordRandomLogin(steps: 20_000, seed: 3, into: log)
        let original = try #require(try Replayer(registry: Self.planted).replay(path: log).first)
        guard case .diverged = original.outcome else {
            Issue.record("the planted bug does not show in the random session: \(original.outcome)")
            return
        }

        let status = await RewindCommandLine(commandName: "rewind", flows: Self.planted).run(["minimize", log, "--diverging", "--output", small])
        #expect(status == 0)
        let session = try #require(try LogReader(path: small).sessions().first)
        #expect(session.name == "random-login-seed3-20000-minimized")
        #expect((2...10).contains(session.lastStep), "\(session.lastStep) steps")

        // With the bug, the short session diverges at its last step; with the reducer fixed,
        // it passes: a regression recording.
        let planted = try #require(try Replayer(registry: Self.planted).replay(path: small).first)
        guard case .diverged(let step, let action, _, let changes) = planted.outcome else {
            Issue.record("the shortened session no longer diverges: \(planted.outcome)")
            return
        }
        #expect(step == session.lastStep)
        #expect(action == "didUpdateUsername" || action == "didUpdatePassword")
        #expect(changes.map(\.path.description).contains("errorMessage"))
        let fixed = try #require(try Replayer(registry: SeedFlows.registry).replay(path: small).first)
        #expect(fixed.passed, "\(fixed.outcome)")
    }

    /// The login reducer with a random ticket number written into the error message at each
    /// tap: a nondeterministic step, the problem until someone takes the line out.
    struct TicketOnTap: Reducer, Sendable {
        let base: LoginFeature

        func reduce(into state: inout LoginState, action: LoginAction) -> Effect<LoginAction> {
            let effect = base.reduce(into: &state, action: action)
            if case .didTapLogin = action { state.errorMessage = "ticket \(Int.random(in: 1...1_000_000_000))" }
            return effect
        }
    }

    @Test func aRandomStepShrinksToASessionThatPassesOnceTheReducerIsFixed() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("demo.rewind"), small = folder.path("small.rewind")
        try await DemoLog.record(into: log)
        let random = ReplayRegistry([
            ReplayFlow(LoginFlow.name) { TicketOnTap(base: LoginFeature(backend: FakeBackend(seed: 0, clock: SimulatedClock(start: .testEpoch)))) }
        ])
        let status = await RewindCommandLine(commandName: "rewind", flows: random).run([
            "minimize", log, "-s", "login-invalid-then-fixed", "--diverging", "--output", small,
        ])
        #expect(status == 0)
        // The username and the password the first tap found, and that tap.
        #expect(
            try await RewindBinary.run(["log", small]).stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true)[3] } == [
                #"didUpdateUsername("al")"#, "didUpdatePassword(<redacted", "didTapLogin",
            ])
        let stillRandom = try #require(try Replayer(registry: random).replay(path: small).first)
        guard case .nondeterministic(step: 3, action: "didTapLogin", _, _) = stillRandom.outcome else {
            Issue.record("expected step 3 to be nondeterministic, got \(stillRandom.outcome)")
            return
        }
        // The third step stores the recorded state, which the reducer gives once the random
        // number is taken out; one run's ticket failed here.
        let fixed = try await RewindBinary.run(["replay", small])
        #expect(fixed.status == 0)
        #expect(
            fixed.stdout
                == "ok      \(small) #1 (login-invalid-then-fixed-minimized): 3 steps replayed, every state matches (3 with redacted fields compared as placeholders)\n"
        )
    }

    @Test func untilShrinksToTheStepsThatReachTheState() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("random.rewind"), small = folder.path("small.rewind")
        try await Self.recordRandomLogin(steps: 5_000, seed: 11, into: log)
        let result = try await RewindBinary.run(["minimize", log, "--until", #"status == "succeeded""#, "--output", small])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        // The session has 5,002 steps: the user's 5,000 and the answers of two logins.
        #expect(lines.first?.hasPrefix("5,002 → 4 steps in ") == true, "\(result.stdout)")
        #expect(lines.first?.hasSuffix(" s, 24 replays") == true, "\(result.stdout)")
        let session = try #require(try LogReader(path: small).sessions().first)
        #expect(lines.last == "wrote session #1 (\(session.name ?? "")) to \(small): step \(session.lastStep) reaches the state")
        // A login that succeeds: a valid username, a long enough password, a tap, its answer;
        // not the answer alone after a tap that, on an empty form, starts no login.
        #expect(
            try await RewindBinary.run(["log", small]).stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true)[3] } == [
                #"didUpdateUsername("alice")"#, "didUpdatePassword(<redacted", "didTapLogin", "loginResponse(success(…))",
            ])
        let last = try LogReader(path: small).state(of: session, at: session.lastStep)
        #expect(last["status"] == "succeeded")
        #expect(try await RewindBinary.run(["replay", small]).status == 0, "its states are the current reducer's")
    }

    @Test func aReducerThatTrapsShrinksInChildProcesses() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("random.rewind"), small = folder.path("small.rewind")
        try await Self.recordRandomLogin(steps: 5_000, seed: 3, into: log)
        // crashing-rewind's login reducer traps on a tap while the form's error shows.
        let result = try await RewindBinary.run(["minimize", log, "--crash", "--output", small], program: "crashing-rewind")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.hasSuffix(
                "\nwrote session #1 (random-login-seed3-5000-minimized) to \(small): the reducer stops the program at step 2 (planted: a tap while the error shows)\n"
            ), "\(result.stdout)")
        #expect(
            try await RewindBinary.run(["log", small]).stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true)[3] } == [
                "didTapLogin", "didTapLogin",
            ])
        let crashing = try await RewindBinary.run(["replay", small], environment: ["SWIFT_BACKTRACE": "enable=no"], program: "crashing-rewind")
        #expect(crashing.status != 0 && crashing.stderr.contains("planted: a tap while the error shows"), "it still traps")
        #expect(try await RewindBinary.run(["replay", small]).status == 0, "without the trap, the second tap changes nothing, as stored")
        let none = try await RewindBinary.run(["minimize", small, "--crash", "--until", "x", "--output", folder.path("x.rewind")], program: "crashing-rewind")
        #expect(none.stderr == "crashing-rewind: choose one of --diverging, --until and --crash (see 'crashing-rewind minimize --help')\n")
    }

    @Test func aSessionThatDoesNotTrapIsNothingToMinimize() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("demo.rewind")
        try await DemoLog.record(into: log)
        let result = try await RewindBinary.run(["minimize", log, "-s", "1", "--crash", "--output", folder.path("out.rewind")], program: "crashing-rewind")
        #expect(result.status == 1)
        #expect(result.stderr == "crashing-rewind: session #1 (login-happy) replays without the reducer stopping the program: nothing to minimize\n")
    }

    @Test(arguments: [
        (
            ["--output", "OUT"], 64,
            "rewind: choose what the shortened session must still show: --diverging, --until EXPR or --crash (see 'rewind minimize --help')"
        ),
        (["--diverging", "--until", "x", "--output", "OUT"], 64, "rewind: choose one of --diverging, --until and --crash (see 'rewind minimize --help')"),
        (["--diverging"], 64, "rewind: missing --output: the log to add the shortened session to (see 'rewind minimize --help')"),
        (["--until", "status ==", "--output", "OUT"], 64, "rewind: invalid predicate at column 10: expected a value after '=='"),
        (["--diverging", "--output", "LOG"], 64, "rewind: LOG: the output is the log being read: write the shortened session to another file"),
        (
            ["--diverging", "--output", "OUT"], 1,
            "rewind: session #1 (login-happy) replays without a divergence or a nondeterministic step: nothing to minimize"
        ),
    ])
    func refusalsAreOneLine(arguments: [String], status: Int32, message: String) async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("login.rewind"), out = folder.path("out.rewind")
        try await DemoLog.record(into: log)
        let replaced = arguments.map { $0 == "OUT" ? out : $0 == "LOG" ? log : $0 }
        let result = try await RewindBinary.run(["minimize", log, "-s", "1"] + replaced)
        #expect(result.status == status)
        #expect(result.stderr == message.replacingOccurrences(of: "LOG", with: log) + "\n")
        #expect(!FileManager.default.fileExists(atPath: out), "nothing written")
    }
}
