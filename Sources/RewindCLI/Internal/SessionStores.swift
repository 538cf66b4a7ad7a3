import Foundation
import RewindInspector
import RewindLog
import RewindTeamStore
import RewindUpload

/// The store a verb's location names: a team store for a `postgres://` URL, a collector's
/// session for an `https://` one, a log otherwise. The one place the command line tells them
/// apart; the verbs read (and `push` and `serve` write) any alike.
enum SessionStores {
    /// The store at `location`; a collector's takes `token`, or else `REWIND_TOKEN`.
    static func open(_ location: String, token: String? = nil) async throws -> any SessionStore {
        if CollectorClient.isLocation(location) {
            return try CollectorSessionStore(location, token: token ?? environmentToken)
        }
        guard TeamStoreLocation.isLocation(location) else { return LogFileStore(path: location) }
        return try await TeamStore.open(try TeamStoreLocation(location))
    }

    /// Where `location` takes uploads: a collector (`https://host`, with `token` or else
    /// `REWIND_TOKEN`), a team store, or a log (made if missing).
    static func destination(_ location: String, token: String? = nil) async throws -> any SessionDestination {
        if CollectorClient.isLocation(location) {
            let (root, session) = try CollectorClient.parse(location)
            guard session == nil else {
                throw CollectorClientError(.invalidLocation, location: location, "upload to the collector's root: https://HOST[:PORT]")
            }
            guard let token = token ?? environmentToken, !token.isEmpty else {
                throw CollectorClientError(.unauthorized, location: location, "a collector needs an upload token: --token TOKEN or REWIND_TOKEN")
            }
            return CollectorClient(root: root, token: token)
        }
        guard TeamStoreLocation.isLocation(location) else { return try LogFileDestination(path: location) }
        return try await TeamStore.open(try TeamStoreLocation(location))
    }

    /// The store at `location` as a collector serves it: where uploads go, and the same store
    /// read, opened once (a team store's pool of `connections`, each upload stored at once on one).
    static func served(_ location: String, connections: Int = 16) async throws -> (any SessionDestination, any SessionStore) {
        guard TeamStoreLocation.isLocation(location) else { return (try LogFileDestination(path: location), LogFileStore(path: location)) }
        let store = try await TeamStore.open(try TeamStoreLocation(location), connections: connections, connectionWait: .seconds(5))
        return (store, store)
    }

    /// Calls `body` with `selection` of the store at `location` made readable (readers open
    /// its `path`); a store elsewhere is let go of before `body` runs, and its copy removed
    /// after.
    static func reading<T>(
        _ location: String, _ selection: SessionSelection, token: String? = nil, _ body: (ReadableSessions) async throws -> T
    ) async throws -> T {
        let store = try await open(location, token: token)
        let readable: ReadableSessions
        do {
            readable = try await store.readable(selection)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
        defer { readable.discard() }
        return try await body(readable)
    }

    /// Whether `location` names a store elsewhere rather than a log on this machine.
    static func isElsewhere(_ location: String) -> Bool {
        TeamStoreLocation.isLocation(location) || CollectorClient.isLocation(location)
    }

    /// How messages name `location`: a URL without its password.
    static func displayName(_ location: String) -> String {
        (try? TeamStoreLocation(location).description) ?? location
    }

    private static var environmentToken: String? {
        ProcessInfo.processInfo.environment["REWIND_TOKEN"]
    }
}
