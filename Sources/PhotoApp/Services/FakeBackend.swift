import Foundation
import RewindCore

/// A deterministic stand-in for the photo app's servers.
///
/// Answers depend only on the seed, the failures planned per call and the order of calls, and
/// every call advances the simulated clock by its latency. So a scripted session produces the
/// same actions, payloads and times on every run.
public final class FakeBackend: Sendable {
    /// The accounts that can sign in, by username, with their passwords.
    public static let accounts: [String: (password: String, user: User)] = [
        "alice": ("wonderland42", User(id: 1, username: "alice", displayName: "Alice Liddell")),
        "bob": ("builder-2024", User(id: 2, username: "bob", displayName: "Bob Builder")),
    ]

    public let clock: SimulatedClock
    public let photoCount: Int
    private let seed: UInt64
    private let lock = NSLock()
    // Read and changed only under `lock`, through `withState`.
    nonisolated(unsafe) private var callState: CallState

    private struct CallState {
        var calls: [Endpoint: Int] = [:]
        var plannedFailures: [Endpoint: Set<Int>] = [:]
        var random: SeededGenerator
        var failureRate: Double
    }

    /// Creates a backend.
    ///
    /// - Parameters:
    ///   - failureRate: the chance that any call fails on its own, drawn from the seed
    ///     (0 for scripted sessions; the random driver uses a little).
    /// A backend for reducers whose effects never run (replay, a test `rewind write-test`
    /// wrote): seeded, on a clock that starts at 1970.
    public static var idle: FakeBackend {
        FakeBackend(seed: 0, clock: SimulatedClock(start: Date(timeIntervalSince1970: 0)))
    }

    public init(seed: UInt64, clock: SimulatedClock, photoCount: Int = 12, failureRate: Double = 0) {
        self.seed = seed
        self.clock = clock
        self.photoCount = photoCount
        self.callState = CallState(random: SeededGenerator(seed: seed ^ 0xFA17), failureRate: failureRate)
    }

    /// Makes the `call`-th call (1 for the first) to `endpoint` fail.
    public func fail(_ endpoint: Endpoint, call: Int = 1) {
        withState { _ = $0.plannedFailures[endpoint, default: []].insert(call) }
    }

    /// Signs a user in.
    public func login(username: String, password: Secret) async -> ServiceResult<User> {
        if let failure = answer(.login) { return .failure(failure) }
        guard let account = Self.accounts[username], account.password == password.value else {
            return .failure("Wrong username or password.")
        }
        return .success(account.user)
    }

    /// Fetches the list of photos.
    public func photos() async -> ServiceResult<PhotoPage> {
        if let failure = answer(.photos) { return .failure(failure) }
        return .success(PhotoPage(title: "Popular this week", photos: PhotoCatalog.photos(count: photoCount, seed: seed)))
    }

    /// Fetches a photo's thumbnail.
    public func thumbnail(photoID: Int) async -> ServiceResult<LoadedImage> {
        if let failure = answer(.thumbnail(photoID: photoID)) { return .failure(failure) }
        return .success(LoadedImage(url: PhotoCatalog.thumbnailURL(photoID), width: 150, height: 150))
    }

    /// Fetches a photo's full-size image.
    public func image(photoID: Int) async -> ServiceResult<LoadedImage> {
        if let failure = answer(.image(photoID: photoID)) { return .failure(failure) }
        let (width, height) = PhotoCatalog.size(of: photoID, seed: seed)
        return .success(LoadedImage(url: PhotoCatalog.imageURL(photoID), width: width, height: height))
    }

    /// Counts the call, advances the clock, and returns a failure message when it must fail.
    private func answer(_ endpoint: Endpoint) -> String? {
        clock.advance(by: endpoint.latency)
        return withState { state in
            let call = state.calls[endpoint, default: 0] + 1
            state.calls[endpoint] = call
            let planned = state.plannedFailures[endpoint]?.contains(call) ?? false
            let unlucky = state.failureRate > 0 && Double.random(in: 0..<1, using: &state.random) < state.failureRate
            return planned || unlucky ? "The network connection was lost (\(endpoint))." : nil
        }
    }

    private func withState<T>(_ body: (inout CallState) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&callState)
    }
}
