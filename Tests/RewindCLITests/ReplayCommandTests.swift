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

    @Test func updateSaysWhatItAcceptedAndReplayThenPasses() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("older.rewind")
        try await Self.recordOlderLogin(into: log)

        let failed = try RewindBinary.run(["replay", log])
        #expect(failed.status == 1)
        #expect(
            failed.stdout == """
                FAILED  \(log) #1 (older): diverged at step 2 (login  didTapLogin); recorded → replayed:
                  ~ errorMessage: "Fix the fields." → "Please correct the highlighted fields."

                """)

        let updated = try RewindBinary.run(["replay", log, "--update"])
        #expect(updated.status == 0, "\(updated.stderr)")
        #expect(
            updated.stdout == """
                updated \(log) #1 (older): accepted the current reducer's states from step 2 (login  didTapLogin); recorded → now:
                  ~ errorMessage: "Fix the fields." → "Please correct the highlighted fields."

                """)

        let again = try RewindBinary.run(["replay", log])
        #expect(again.status == 0)
        #expect(again.stdout == "ok      \(log) #1 (older): 3 steps replayed, every state matches (3 with redacted fields compared as placeholders)\n")
    }

    @Test func rerunInStepComparesOneStepWithTheCurrentReducer() async throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("older.rewind")
        try await Self.recordOlderLogin(into: log)
        let before = FileManager.default.contents(atPath: log)

        let result = try RewindBinary.run(["step", log], input: "rerun\nnext\nrerun\nnext\nrerun\n")
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
