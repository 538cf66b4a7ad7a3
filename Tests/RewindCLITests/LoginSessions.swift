import Foundation
import PhotoApp
import RewindCore
import RewindLog

/// Login sessions made to order, for tests that need particular strings in a log.
enum LoginSessions {
    /// Records one session that types each of `usernames` in turn.
    @MainActor
    static func record(usernames: [String], name: String, into path: String) throws {
        let sink = try SQLiteSink(path: path)
        let recorder = Recorder<LoginState, LoginAction>(sink: sink, session: SessionDescriptor(name: name, flow: "login", now: { .testEpoch }))
        let backend = FakeBackend(seed: 1, clock: SimulatedClock(start: .testEpoch))
        let store = Store(initialState: LoginState(), reducer: LoginFeature(backend: backend), middleware: [recorder])
        for username in usernames { store.send(.didUpdateUsername(username)) }
        recorder.close()
        try sink.close()
    }
}
