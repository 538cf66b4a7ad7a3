#if Servers
import Foundation
import PostgresNIO
import RewindCore
import RewindLog
import RewindUpload

/// A team store: the sessions of many logs in one PostgreSQL database, each under its
/// identity (docs/team-store.md).
///
/// A pool of connections (`PostgresClient`) that replaces those the server closes: a
/// collector in front of it outlives a restart of the server. Its schema is brought to this
/// code's version once, when it is opened. Its pool works only while ``run()`` runs, as
/// postgres-nio's own client does: ``withStore(_:connections:connectionWait:_:)`` runs it in a
/// task group beside the work and ends it after.
///
/// ```swift
/// let copy = try await TeamStore.withStore(try TeamStoreLocation("postgres://rewind@db/rewind")) { store in
///     try await store.copy(of: "login-happy")
/// }
/// ```
public final class TeamStore: Sendable {
    /// The store's location, without its password.
    public let location: TeamStoreLocation
    let client: PostgresClient
    let logger: Logger
    /// The connections at work, each watched for the server closing it.
    let closing = ClosingWatch()
    /// How long a request waits for a connection of the pool before it is answered that the
    /// server cannot be reached (the pool itself would wait 60 s, retrying to connect).
    let connectionWait: Duration

    private init(location: TeamStoreLocation, client: PostgresClient, logger: Logger, connectionWait: Duration) {
        self.location = location
        self.client = client
        self.logger = logger
        self.connectionWait = connectionWait
    }

    /// Opens the store at `location` (``open(_:connections:connectionWait:)``), calls `body`
    /// with it while its pool runs in a child task, then ends the pool, closing its
    /// connections, whether `body` returned or threw.
    public static func withStore<T>(
        _ location: TeamStoreLocation, connections: Int = 4, connectionWait: Duration = .seconds(10),
        isolation: isolated (any Actor)? = #isolation, _ body: (TeamStore) async throws -> T
    ) async throws -> T {
        let store = try await open(location, connections: connections, connectionWait: connectionWait)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.run() }
            defer { group.cancelAll() }
            return try await body(store)
        }
    }

    /// The pool's own work (connecting, keeping alive, closing idle connections), until the
    /// task that runs it is cancelled: the store serves requests only while this runs.
    public func run() async {
        await client.run()
    }

    /// Connects to the store at `location` and brings its schema to this code's version
    /// (creating it in an empty database). Its work waits for a connection until ``run()``
    /// runs: ``withStore(_:connections:connectionWait:_:)`` does both.
    ///
    /// - Parameters:
    ///   - connections: The most connections the store keeps open to the server at once (a
    ///     command line needs one; a collector, one for each upload it stores at once).
    ///   - connectionWait: How long work waits for a connection before it fails as
    ///     `.unavailable`: while the server is restarting, for instance.
    /// - Throws: ``StoreError``: `.unavailable` when the server cannot be reached,
    ///   `.unauthorized` for credentials it refuses, `.newerSchema` for a store of a newer Rewind.
    public static func open(
        _ location: TeamStoreLocation, connections: Int = 4, connectionWait: Duration = .seconds(10)
    ) async throws(StoreError) -> TeamStore {
        let logger = {
            var logger = Logger(label: "rewind.team-store")
            logger.logLevel = .critical
            return logger
        }()
        let tls: (connection: PostgresConnection.Configuration.TLS, pool: PostgresClient.Configuration.TLS)
        do {
            tls = try Self.tls(location.tls)
        } catch {
            throw StoreError(.invalidLocation, location: location.description, "cannot set up TLS: \(error)")
        }
        // The schema on a connection of its own, made at once: a server out of reach, or
        // refusing the credentials, is said in one line now rather than after the pool's retries.
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: tls.connection)
        configuration.options.connectTimeout = .seconds(10)
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        } catch {
            throw Self.describe(error, location: location.description)
        }
        let watch = ClosingWatch()
        do {
            try await watch.untilClosed(connection, location: location.description) { connection in
                try await Self.migrate(on: connection, location: location.description, logger: logger)
            }
        } catch {
            try? await connection.close()
            throw Self.describe(error, location: location.description)
        }
        try? await connection.close()
        var pool = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: tls.pool)
        pool.options.connectTimeout = .seconds(10)
        pool.options.maximumConnections = max(1, connections)
        let client = PostgresClient(configuration: pool, backgroundLogger: logger)
        return TeamStore(location: location, client: client, logger: logger, connectionWait: connectionWait)
    }

    /// Nothing: the pool's connections close when the task running ``run()`` is cancelled
    /// (``withStore(_:connections:connectionWait:_:)`` cancels it after its work).
    public func close() async {}

    private static func tls(
        _ mode: TeamStoreLocation.TLSMode
    ) throws -> (connection: PostgresConnection.Configuration.TLS, pool: PostgresClient.Configuration.TLS) {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch mode {
        case .disable:
            return (.disable, .disable)
        case .allow, .prefer:
            // libpq checks no certificate in these modes, nor in `require`; nor are the
            // system's trust roots loaded, which took 15 of a `show`'s 60 ms.
            configuration.certificateVerification = .none
            configuration.trustRoots = .certificates([])
            return (.prefer(try NIOSSLContext(configuration: configuration)), .prefer(configuration))
        case .require:
            configuration.certificateVerification = .none
            configuration.trustRoots = .certificates([])
            return (.require(try NIOSSLContext(configuration: configuration)), .require(configuration))
        case .verifyCA:
            configuration.certificateVerification = .noHostnameVerification
            return (.require(try NIOSSLContext(configuration: configuration)), .require(configuration))
        case .verifyFull:
            configuration.certificateVerification = .fullVerification
            return (.require(try NIOSSLContext(configuration: configuration)), .require(configuration))
        }
    }

    /// Runs `query` on `connection`, mapping the client's errors to ``StoreError``.
    @discardableResult
    func run(_ query: PostgresQuery, on connection: PostgresConnection) async throws(StoreError) -> PostgresRowSequence {
        do {
            return try await connection.query(query, logger: logger)
        } catch {
            throw Self.describe(error, location: location.description)
        }
    }

    /// Runs `body` in a transaction on `connection`: committed when it returns, rolled back
    /// when it throws. What `body` throws comes out as it is.
    static func transaction<T: Sendable>(
        on connection: PostgresConnection, logger: Logger, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        do {
            return try await connection.withTransaction(logger: logger) { connection in try await body(connection) }
        } catch let error as PostgresTransactionError {
            throw error.closureError ?? error.commitError ?? error.beginError ?? error
        }
    }

    /// One line for an error of the client or the server.
    static func describe(_ error: any Error, location: String) -> StoreError {
        if let error = error as? StoreError { return error }
        guard let error = error as? PSQLError else {
            return StoreError(.unavailable, location: location, "cannot reach the server: \(error)")
        }
        if let info = error.serverInfo {
            let state = info[.sqlState] ?? ""
            let message = info[.message] ?? "an error"
            // 28xxx: invalid authorization; 3D000: no such database.
            if state.hasPrefix("28") || state == "3D000" {
                return StoreError(.unauthorized, location: location, "the server refused the connection: \(message)")
            }
            // 57P01-57P03: the server is shutting down or restarting; 08xxx: connection failures.
            if state.hasPrefix("57P") || state.hasPrefix("08") {
                return StoreError(.unavailable, location: location, "the server went away: \(message)")
            }
            return StoreError(.failed, location: location, "the server reported: \(message) (SQLSTATE \(state))")
        }
        switch error.code {
        case .authMechanismRequiresPassword:
            return StoreError(.unauthorized, location: location, "the server wants a password: give PGPASSWORD or a ~/.pgpass line")
        case .serverClosedConnection, .connectionError, .uncleanShutdown, .clientClosedConnection:
            let reason = error.underlying.map { ": \($0)" } ?? ""
            return StoreError(.unavailable, location: location, "cannot reach the server\(reason)")
        default:
            return StoreError(.failed, location: location, "the PostgreSQL client failed: \(error.code)")
        }
    }
}
#endif
