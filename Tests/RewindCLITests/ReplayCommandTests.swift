import Foundation
import PhotoApp
import RewindCore
import RewindLog
import Testing

/// `rewind replay` and `step`'s rerun against the photo app's reducers, on a recording whose
/// login screen had another error message: an intended change to accept.
@Suite struct ReplayCommandTests {
    /// The login screen as an older version wrote it: another wording of the error.
    struct OlderLogin: Reducer {
        let base = LoginFeature(backend: FakeBackend(seed: 1, clock: SimulatedClock(start: .testEpoch)))

        func reduce(into state: inout LoginState, action: LoginAction) -> Effect<LoginAction> {
            let effect = base.reduce(into: &state, action: action)
            if state.errorMessage != nil { state.errorMessage = "Fix the fields." }
            return effect
        }
    }

    @MainActor
    static func recordOlderLogin(into path: String) throws {
        let sink = try SQLiteSink(path: path)
        let recorder = Recorder<LoginState, LoginAction>(sink: sink, session: SessionDescriptor(name: "older", flow: "login", now: { .testEpoch }))
        let store = Store(initialState: LoginState(), reducer: OlderLogin(), middleware: [recorder])
        store.send(.didUpdateUsername("al"))
        store.send(.didTapLogin)
        store.send(.didUpdateUsername("alice"))
        recorder.close()
        try sink.close()
    }

    /// A hostile name: markup, a bidirectional override and a terminal escape.
    static let hostileWork = "<img src=x onerror=window.pwned=1>\u{202E}\u{1B}[31m"

    /// The login screen as an older version wrote it: typing a user name also started work,
    /// under a name no screen should print raw. Every state is the current reducer's.
    struct ChattyLogin: Reducer {
        let base = LoginFeature(backend: FakeBackend(seed: 1, clock: SimulatedClock(start: .testEpoch)))

        func reduce(into state: inout LoginState, action: LoginAction) -> Effect<LoginAction> {
            let effect = base.reduce(into: &state, action: action)
            guard case .didUpdateUsername = action else { return effect }
            return .merge(effect, .run(name: ReplayCommandTests.hostileWork) { _ in })
        }
    }

    @MainActor
    static func recordChattyLogin(into path: String) throws {
        let sink = try SQLiteSink(path: path)
        let recorder = Recorder<LoginState, LoginAction>(sink: sink, session: SessionDescriptor(name: "chatty", flow: "login", now: { .testEpoch }))
        let store = Store(initialState: LoginState(), reducer: ChattyLogin(), middleware: [recorder], execution: .manual)
        store.send(.didUpdateUsername("al"))
        store.send(.didTapLogin)
        recorder.close()
        try sink.close()
    }

    @Test func aStepThatNoLongerStartsWorkFailsAndUpdateAcceptsIt() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("chatty.rewind")
        try await Self.recordChattyLogin(into: log)

        let failed = try await RewindBinary.run(["replay", log])
        #expect(failed.status == 1)
        #expect(
            failed.stdout
                == #"FAILED  \#(log) #1 (chatty): step 1 (login  didUpdateUsername) no longer starts "<img src=x onerror=window.pwned=1>\u202e\u001b[31m""#
                + "\n")
        let json = try await RewindBinary.run(["replay", log, "--json"])
        #expect(json.status == 1)
        #expect(
            json.stdout.contains(
                #""behaviour":[{"change":"no_longer_starts","name":"<img src=x onerror=window.pwned=1>\u202e\u001b[31m"}],"log":"#),
            "\(json.stdout)")
        #expect(json.stdout.contains(#""outcome":"behaviour_changed","redacted_steps":1,"replayed_steps":1,"session":1,"step":1,"#))

        let updated = try await RewindBinary.run(["replay", log, "--update"])
        #expect(updated.status == 0, "\(updated.stderr)")
        #expect(
            updated.stdout
                == #"updated \#(log) #1 (chatty): accepted what the current reducer asks for from step 1 (login  didUpdateUsername): no longer starts "<img src=x onerror=window.pwned=1>\u202e\u001b[31m""#
                + "\n")
        let passed = try await RewindBinary.run(["replay", log])
        #expect(passed.status == 0 && passed.stdout.hasPrefix("ok      \(log) #1 (chatty): 2 steps replayed"), "\(passed.stdout)")
    }

    @Test func recordVerdictKeepsTheOutcomeBesideTheSession() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("older.rewind")
        try await Self.recordOlderLogin(into: log)

        // The verdict's time is the replay's: between these two, to the second it is kept in.
        let before = Date().timeIntervalSince1970.rounded(.down)
        let failed = try await RewindBinary.run(["replay", log, "--record-verdict", "abc123"])
        let after = Date().timeIntervalSince1970.rounded(.up)
        #expect(failed.status == 1 && failed.stderr.isEmpty, "\(failed.stderr)")
        let tags = try #require(try LogReader(path: log).sessions().first?.metadata?.tags)
        #expect(tags["rewind.verdict"] == "diverged" && tags["rewind.verdict.step"] == "2" && tags["rewind.verdict.build"] == "abc123")
        let at = try #require(tags["rewind.verdict.at"].flatMap(Double.init))
        #expect(before <= at && at <= after, "\(before) <= \(at) <= \(after)")

        // Accepted, replayed again against another build: the new verdict replaces the old.
        #expect(try await RewindBinary.run(["replay", log, "--update"]).status == 0)
        #expect(try await RewindBinary.run(["replay", log, "--record-verdict", "def456"]).status == 0)
        let again = try #require(try LogReader(path: log).sessions().first?.metadata?.tags)
        #expect(again["rewind.verdict"] == "passed" && again["rewind.verdict.step"] == "0" && again["rewind.verdict.build"] == "def456")

        let refused: [([String], String)] = [
            (
                ["--record-verdict", "a\u{1B}b"],
                #"rewind: invalid --record-verdict "a\\u001bb": a build is 1 to 128 printable ASCII characters, such as a commit or v2.3.1 (see 'rewind replay --help')"#
            ),
            (
                ["--record-verdict", "v1", "--update"],
                "rewind: --record-verdict keeps a replay's outcome; it goes with neither --update nor --skip (see 'rewind replay --help')"
            ),
        ]
        for (arguments, message) in refused {
            let result = try await RewindBinary.run(["replay", log] + arguments)
            #expect(result.status == 64 && result.stderr == message + "\n", "\(result.stderr)")
        }
    }

    @Test func updateSaysWhatItAcceptedAndReplayThenPasses() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("older.rewind")
        try await Self.recordOlderLogin(into: log)

        let failed = try await RewindBinary.run(["replay", log])
        #expect(failed.status == 1)
        #expect(
            failed.stdout == """
                FAILED  \(log) #1 (older): diverged at step 2 (login  didTapLogin); recorded → replayed:
                  ~ errorMessage: "Fix the fields." → "Please correct the highlighted fields."

                """)

        let updated = try await RewindBinary.run(["replay", log, "--update"])
        #expect(updated.status == 0, "\(updated.stderr)")
        #expect(
            updated.stdout == """
                updated \(log) #1 (older): accepted the current reducer's states from step 2 (login  didTapLogin); recorded → now:
                  ~ errorMessage: "Fix the fields." → "Please correct the highlighted fields."

                """)

        let again = try await RewindBinary.run(["replay", log])
        #expect(again.status == 0)
        #expect(again.stdout == "ok      \(log) #1 (older): 3 steps replayed, every state matches (3 with redacted fields compared as placeholders)\n")
    }

    @Test func rerunInStepComparesOneStepWithTheCurrentReducer() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("older.rewind")
        try await Self.recordOlderLogin(into: log)
        let before = FileManager.default.contents(atPath: log)

        let result = try await RewindBinary.run(["step", log], input: "rerun\nnext\nrerun\nnext\nrerun\n")
        #expect(result.status == 0)
        let replies = result.stdout.components(separatedBy: "\n\n").map { $0.split(separator: "\n").last.map(String.init) ?? "" }
        #expect(replies.contains("step 0 is the initial state; there is no action to run"))
        #expect(replies.contains("step 1: the current reducer gives the recorded state"))
        #expect(
            result.stdout.contains(
                """
                step 2: the current reducer gives another state; recorded → now:
                  ~ errorMessage: "Fix the fields." → "Please correct the highlighted fields."
                """))
        #expect(FileManager.default.contents(atPath: log) == before, "rerun writes nothing")
    }
}
