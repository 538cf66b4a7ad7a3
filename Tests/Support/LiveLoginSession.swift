import Foundation
import PhotoApp
import RewindCore
import RewindLog

/// A login session recorded a few steps at a time, committed after each, for tests of
/// readers that follow a session while it is recorded (`--follow`).
///
/// Step N types the username `uN`, so every step has an action and a change of its own.
@MainActor
public final class LiveLoginSession {
    public let path: String
    private let sink: SQLiteSink
    private let recorder: Recorder<LoginState, LoginAction>
    private let store: Store<LoginState, LoginAction>
    /// The steps recorded so far.
    public private(set) var steps = 0

    /// Starts session `name` in the log at `path` (created when missing): its initial state
    /// is committed at once.
    public init(path: String, name: String = "live", retention: LogRetention = .everything, keyframeInterval: Int? = nil) throws {
        self.path = path
        sink = try SQLiteSink(path: path, retention: retention)
        var configuration = RecorderConfiguration()
        if let keyframeInterval { configuration.keyframeInterval = keyframeInterval }
        recorder = Recorder<LoginState, LoginAction>(
            sink: sink, session: SessionDescriptor(name: name, flow: "login", now: { .testEpoch }), configuration: configuration)
        let backend = FakeBackend(seed: 1, clock: SimulatedClock(start: .testEpoch))
        store = Store(initialState: LoginState(), reducer: LoginFeature(backend: backend), middleware: [recorder])
        recorder.flush()
    }

    /// Records `count` more steps and commits them.
    public func record(_ count: Int) {
        for _ in 0..<count {
            steps += 1
            store.send(.didUpdateUsername("u\(steps)"))
        }
        recorder.flush()
    }

    /// Records a step that types `username`, and commits it.
    public func type(_ username: String) {
        steps += 1
        store.send(.didUpdateUsername(username))
        recorder.flush()
    }

    /// Ends the session, as an app's recorder does when it closes.
    public func end() throws {
        recorder.close()
        try sink.close()
    }
}
