import Foundation
import RewindLog
import RewindUpload

/// The store a location names, opened: a team store for a `postgres://` URL, a collector for
/// an `http(s)://` one, a log for a path. The one place locations are told apart: the verbs of
/// `rewind`, and an app's own tool, read and write any of the three alike.
///
/// The team store is there when this package is built with the `Servers` trait; a build
/// without it says so, in one line, for a `postgres://` location. Every store is opened for
/// the time of a closure: a team store's pool runs only while it is used.
public enum SessionStores {
    /// Calls `body` with the store at `location`, open until `body` returns: a log's writer is
    /// closed, a team store's pool runs beside `body` (as postgres-nio runs a client, in a task
    /// group) and ends with it. A collector's store takes `token`, or else `REWIND_TOKEN`.
    ///
    /// ```swift
    /// let sessions = try await SessionStores.withStore("postgres://rewind@db:5432/rewind") { store in
    ///     try await store.sessions(matching: SessionFilter())
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - connections: a team store's pool.
    ///   - connectionWait: how long a team store's work waits for a connection of its pool.
    /// - Throws: ``StoreError`` for a location that names no store, a store out of reach or
    ///   refusing the credentials; what `body` throws, as it is.
    package static func withStore<T>(
        _ location: String, token: String? = nil, connections: Int = 4, connectionWait: Duration = .seconds(10),
        isolation: isolated (any Actor)? = #isolation, _ body: (any SessionStore) async throws -> T
    ) async throws -> T {
        guard TeamStoreLocation.isLocation(location) else {
            return try await closing(try nearby(location, token: token), after: body)
        }
        let team = try TeamStoreLocation(location)
        #if Servers
        return try await TeamStore.withStore(team, connections: connections, connectionWait: connectionWait) { try await body($0) }
        #else
        throw StoreError(
            .notBuilt, location: team.description,
            "this rewind was built without the team store: build it with the Servers trait (swift run --traits Servers rewind …)")
        #endif
    }

    /// Calls `body` with where `location` takes copies of sessions, what an app's tool hands
    /// an ``Uploader``: a log (made if missing), a team store, or a collector's root.
    public static func withDestination<T>(
        _ location: String, token: String? = nil, isolation: isolated (any Actor)? = #isolation,
        _ body: (any SessionDestination) async throws -> T
    ) async throws -> T {
        if CollectorClient.isLocation(location), try CollectorClient.parse(location).session != nil {
            throw StoreError(.invalidLocation, location: location, "upload to the collector's root: https://HOST[:PORT]")
        }
        guard !isElsewhere(location) else { return try await withStore(location, token: token) { try await body($0) } }
        return try await closing(try LogFileStore(writingTo: location)) { try await body($0) }
    }

    /// Calls `body` with the store at `location` as a collector serves it: a log opened for
    /// writing at once, or a team store's pool of `connections`, each upload stored at once on
    /// one.
    package static func withServed<T>(
        _ location: String, connections: Int = 16, isolation: isolated (any Actor)? = #isolation,
        _ body: (any SessionStore) async throws -> T
    ) async throws -> T {
        guard TeamStoreLocation.isLocation(location) else { return try await closing(try LogFileStore(writingTo: location), after: body) }
        return try await withStore(location, connections: connections, connectionWait: .seconds(5), body)
    }

    /// The store at `location` that needs no pool: a collector's, or a log's.
    private static func nearby(_ location: String, token: String?) throws -> any SessionStore {
        if CollectorClient.isLocation(location) {
            return try CollectorStore(location, token: token ?? environmentToken)
        }
        // `mysql://…` is a store this does not know, not a file of that name.
        if location.range(of: "^[A-Za-z][A-Za-z0-9+.-]*://", options: .regularExpression) != nil {
            let expected = "give a log's path, postgres://user@host:port/database or https://host[:port]"
            throw StoreError(.invalidLocation, location: location, "not a store's location: \(expected)")
        }
        return LogFileStore(path: location)
    }

    /// `body(store)`, then `store` closed, whether `body` threw or not.
    private static func closing<T>(
        _ store: any SessionStore, isolation: isolated (any Actor)? = #isolation, after body: (any SessionStore) async throws -> T
    ) async throws -> T {
        let result: T
        do {
            result = try await body(store)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
        return result
    }

    /// Calls `body` with `selection` of the store at `location` made readable (readers open
    /// its `path`); a store elsewhere is let go of before `body` runs, and its copy removed
    /// after.
    package static func reading<T>(
        _ location: String, _ selection: SessionSelection, token: String? = nil, _ body: (ReadableSessions) async throws -> T
    ) async throws -> T {
        let readable = try await withStore(location, token: token) { try await $0.readable(selection) }
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
