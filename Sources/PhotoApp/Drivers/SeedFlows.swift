import Foundation
import RewindCore

/// The photo app's flows as a replayer sees them: recordings of `login`, `photos` and `app`
/// sessions replay against the current reducers.
public enum SeedFlows {
    /// The flows by name. Effects never run on replay, so the backend is never called.
    public static var registry: ReplayRegistry {
        ReplayRegistry([
            ReplayFlow(LoginFlow.name) { LoginFlow.reducer(backend: idleBackend) },
            ReplayFlow(PhotosFlow.name) { PhotosFlow.reducer(backend: idleBackend) },
            ReplayFlow(AppFlow.name) { AppFlow.reducer(backend: idleBackend) },
        ])
    }

    private static var idleBackend: FakeBackend {
        FakeBackend(seed: 0, clock: SimulatedClock(start: Date(timeIntervalSince1970: 0)))
    }
}
