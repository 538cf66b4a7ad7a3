import Foundation
import PhotoApp
import RewindCore
import RewindLog
import Testing

/// How the command line reads its arguments: negative steps, one-line usage errors, help.
@Suite struct ArgumentTests {
    @Test func negativeStepsCountBackFromTheLast() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("demo.rewind")
        try await DemoLog.record(into: log)

        let last = try await RewindBinary.run(["show", log, "-1", "-s", "login-happy"])
        let twenty = try await RewindBinary.run(["show", log, "20", "-s", "login-happy"])
        #expect(last.status == 0, "\(last.stderr)")
        #expect(last.stdout == twenty.stdout)

        let tail = try await RewindBinary.run(["log", log, "-s", "login-happy", "--from", "-3"])
        #expect(tail.status == 0, "\(tail.stderr)")
        #expect(tail.stdout.split(separator: "\n").map { $0.split(separator: " ").first ?? "" } == ["18", "19", "20"])

        let upTo = try await RewindBinary.run(["log", log, "-s", "login-happy", "--from", "-3", "--to", "-2"])
        #expect(upTo.stdout.split(separator: "\n").count == 2)

        let diff = try await RewindBinary.run(["diff", log, "-2", "-1", "-s", "login-happy"])
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.hasPrefix("\(log) #1 (login-happy) step 19 → \(log) #1 (login-happy) step 20\n"))

        let across = try await RewindBinary.run(["diff", "\(log):login-happy:-2", "\(log):login-happy:-1"])
        #expect(across.stdout == diff.stdout)

        let step = try await RewindBinary.run(["step", log, "-s", "login-happy", "--at", "-1"], input: "quit\n")
        #expect(step.stdout.hasPrefix("#1 (login-happy): step 20 of 20"), "\(step.stdout)")
    }

    @Test(arguments: [
        (["show"], "missing expected argument '<log>' (see 'rewind show --help')"),
        (["show", "x.rewind"], "missing expected argument '<step>' (see 'rewind show --help')"),
        (["show", "x.rewind", "two"], "the value 'two' is invalid for '<step>' (see 'rewind show --help')"),
        (["log", "x.rewind", "--from"], "missing value for '--from <from>' (see 'rewind log --help')"),
        (["log", "x.rewind", "--colour"], "unknown option '--colour' (see 'rewind log --help')"),
        (["frobnicate"], "unexpected argument 'frobnicate' (see 'rewind --help')"),
    ])
    func argumentErrorsAreOneLineAndExit64(arguments: [String], message: String) async throws {
        let result = try await RewindBinary.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr == "rewind: \(message)\n")
        #expect(result.stdout == "")
    }

    @Test func helpAndVersionGoToStandardOutputWhole() async throws {
        let help = try await RewindBinary.run(["show", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: rewind show <log> <step>"))
        #expect(help.stdout.contains("-1 the last step"))
        #expect(help.stderr == "")
        let version = try await RewindBinary.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == "0.2.0\n")
    }

    @Test func replayOfAFlowThisCommandDoesNotKnowSaysHowToGetOne() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("todo.rewind")
        try await Self.recordSession(ofFlow: "todo", into: log)
        let before = FileManager.default.contents(atPath: log)

        let replay = try await RewindBinary.run(["replay", log])
        #expect(replay.status == 64)
        #expect(
            replay.stderr == """
                rewind: \(log): session #1 (chores) is of flow 'todo', whose reducer rewind does not have (it knows app, login, photos); \
                replay runs an app's reducers: build your app's own inspector with the RewindCLI library (docs/adoption.md, "Your own inspector")

                """)
        #expect(try await RewindBinary.run(["replay", log, "--update"]).status == 64)

        // Reading needs no reducer; rerun in `step` says what it needs.
        #expect(try await RewindBinary.run(["log", log]).status == 0)
        let step = try await RewindBinary.run(["step", log, "--at", "1"], input: "rerun\n")
        #expect(step.status == 0)
        #expect(step.stdout.contains("session #1 (chores) is of flow 'todo', whose reducer rewind does not have"))
        #expect(FileManager.default.contents(atPath: log) == before)
    }

    /// A session of the login screen's types, recorded under another flow's name.
    @MainActor
    static func recordSession(ofFlow flow: String, into path: String) async throws {
        let sink = try SQLiteSink(path: path)
        let recorder = Recorder<LoginState, LoginAction>(sink: sink, session: SessionDescriptor(name: "chores", flow: flow))
        let store = Store(
            initialState: LoginState(), reducer: LoginFeature(backend: FakeBackend(seed: 1, clock: SimulatedClock(start: .testEpoch))), middleware: [recorder])
        store.send(.didUpdateUsername("a"))
        store.send(.didUpdateUsername("ab"))
        recorder.close()
        try sink.close()
    }
}
