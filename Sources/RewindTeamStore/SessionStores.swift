import Foundation
import RewindLog
import RewindUpload

/// The store a location names, opened: a team store for a `postgres://` URL, a collector for
/// an `http(s)://` one, a log for a path. The one place locations are told apart: the verbs of
/// `rewind`, and an app's own tool, read and write any of the three alike.
///
/// The team store is there when this package is built with the `Servers` trait; a build
/// without it says so, in one line, for a `postgres://` location.
public enum SessionStores {
    /// The store at `location`; a collector's takes `token`, or else `REWIND_TOKEN`.
    ///
    /// - Parameters:
    ///   - connections: a team store's pool.
    ///   - connectionWait: how long a team store's work waits for a connection of its pool.
    package static func open(
        _ location: String, token: String? = nil, connections: Int = 4, connectionWait: Duration = .seconds(10)
    ) async throws -> any SessionStore {
        if CollectorClient.isLocation(location) {
            return try CollectorStore(location, token: token ?? environmentToken)
        }
        guard TeamStoreLocation.isLocation(location) else {
            // `mysql://…` is a store this does not know, not a file of that name.
            if location.range(of: "^[A-Za-z][A-Za-z0-9+.-]*://", options: .regularExpression) != nil {
                let expected = "give a log's path, postgres://user@host:port/database or https://host[:port]"
                throw TeamStoreError(.invalidLocation, location: location, "not a store's location: \(expected)")
            }
            return LogFileStore(path: location)
        }
        let team = try TeamStoreLocation(location)
        #if Servers
        return try await TeamStore.open(team, connections: connections, connectionWait: connectionWait)
        #else
        throw TeamStoreError(
            .notBuilt, location: team.description,
            "this rewind was built without the team store: build it with the Servers trait (swift run --traits Servers rewind …)")
        #endif
    }

    /// Where `location` takes copies of sessions: what an app's tool hands an ``Uploader``.
    /// A log is made if missing.
    public static func destination(_ location: String, token: String? = nil) async throws -> any SessionDestination {
        if CollectorClient.isLocation(location), try CollectorClient.parse(location).session != nil {
            throw CollectorClientError(.invalidLocation, location: location, "upload to the collector's root: https://HOST[:PORT]")
        }
        guard !isElsewhere(location) else { return try await open(location, token: token) }
        return try LogFileStore(writingTo: location)
    }

    /// The store at `location` as a collector serves it, opened once: a log opened for
    /// writing at once, or a team store's pool of `connections`, each upload stored at once on
    /// one.
    package static func served(_ location: String, connections: Int = 16) async throws -> any SessionStore {
        guard TeamStoreLocation.isLocation(location) else { return try LogFileStore(writingTo: location) }
        return try await open(location, connections: connections, connectionWait: .seconds(5))
    }

    /// Calls `body` with `selection` of the store at `location` made readable (readers open
    /// its `path`); a store elsewhere is let go of before `body` runs, and its copy removed
    /// after.
    package static func reading<T>(
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
    public static func isElsewhere(_ location: String) -> Bool {
        TeamStoreLocation.isLocation(location) || CollectorClient.isLocation(location)
    }

    /// How messages name `location`: a URL without its password.
    public static func displayName(_ location: String) -> String {
        (try? TeamStoreLocation(location).description) ?? location
    }

    private static var environmentToken: String? {
        ProcessInfo.processInfo.environment["REWIND_TOKEN"]
    }
}
