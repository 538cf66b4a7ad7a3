import Foundation
import PhotoApp
import RewindCore
import RewindLog
import RewindReplay

/// Records one scripted session into a fresh log.
@MainActor
func recordScript(_ name: String, into path: String) async throws {
    let sink = try SQLiteSink(path: path)
    await ScriptedSession.named(name)!.run(host: RecordingHost(sink: sink), start: Date(timeIntervalSince1970: 1_800_000_000))
    try sink.close()
}

/// A reducer that behaves like `base` until its `fromAction`-th action, then also applies
/// `sabotage`: a bug planted at a known step.
struct PlantedBug<Base: Reducer & Sendable>: Reducer, Sendable where Base.State: Sendable {
    let base: Base
    let fromAction: Int
    let sabotage: @Sendable (inout Base.State) -> Void
    let counter = Counter()

    final class Counter: @unchecked Sendable {
        var count = 0
    }

    func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
        counter.count += 1
        let effect = base.reduce(into: &state, action: action)
        if counter.count >= fromAction { sabotage(&state) }
        return effect
    }
}

/// The login flow with its reducer wrapped.
func loginFlow<R: Reducer & Sendable>(_ make: @escaping @Sendable (LoginFeature) -> R) -> ReplayRegistry
where R.State == LoginState, R.Action == LoginAction {
    ReplayRegistry([ReplayFlow("login") { make(LoginFeature(backend: FakeBackend(seed: 0, clock: SimulatedClock(start: Date())))) }])
}
