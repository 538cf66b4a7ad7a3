#if TeamStore
import Foundation
import PostgresNIO
import RewindCore
import RewindInspector
import RewindLog

/// A team store: the sessions of many logs in one PostgreSQL database, each under its
/// identity (docs/team-store.md).
///
/// One connection, used by one task at a time; `close()` when done.
public final class TeamStore: Sendable {
    /// The store's location, without its password.
    public let location: TeamStoreLocation
    let connection: PostgresConnection
    let logger: Logger
    /// One transaction at a time on `connection`: a collector's uploads come at once.
    let gate = AsyncGate()

    private init(location: TeamStoreLocation, connection: PostgresConnection, logger: Logger) {
        self.location = location
        self.connection = connection
        self.logger = logger
    }

    /// Connects to the store at `location` and brings its schema to this code's version
    /// (creating it in an empty database).
    ///
    /// - Throws: ``TeamStoreError``: `.unavailable` when the server cannot be reached,
    ///   `.refused` for credentials it refuses, `.newerSchema` for a store of a newer Rewind.
    public static func open(_ location: TeamStoreLocation) async throws(TeamStoreError) -> TeamStore {
        var logger = Logger(label: "rewind.team-store")
        logger.logLevel = .critical
        let tls: PostgresConnection.Configuration.TLS
        do {
            tls = try Self.tls(location.tls)
        } catch {
            throw TeamStoreError(.invalidLocation, location: location.description, "cannot set up TLS: \(error)")
        }
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: tls)
        configuration.options.connectTimeout = .seconds(10)
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        } catch {
            throw Self.describe(error, location: location.description)
        }
        let store = TeamStore(location: location, connection: connection, logger: logger)
        do {
            try await store.untilClosed { try await store.migrate() }
        } catch {
            try? await connection.close()
            throw error
        }
        return store
    }

    /// Closes the connection.
    public func close() async {
        try? await connection.close()
    }

    private static func tls(_ mode: TeamStoreLocation.TLSMode) throws -> PostgresConnection.Configuration.TLS {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch mode {
        case .disable:
            return .disable
        case .allow, .prefer:
            // libpq checks no certificate in these modes, nor in `require`; nor are the
            // system's trust roots loaded, which took 15 of a `show`'s 60 ms.
            configuration.certificateVerification = .none
            configuration.trustRoots = .certificates([])
            return .prefer(try NIOSSLContext(configuration: configuration))
        case .require:
            configuration.certificateVerification = .none
            configuration.trustRoots = .certificates([])
            return .require(try NIOSSLContext(configuration: configuration))
        case .verifyCA:
            configuration.certificateVerification = .noHostnameVerification
            return .require(try NIOSSLContext(configuration: configuration))
        case .verifyFull:
            configuration.certificateVerification = .fullVerification
            return .require(try NIOSSLContext(configuration: configuration))
        }
    }

    /// Runs `query`, mapping the client's errors to ``TeamStoreError``.
    @discardableResult
    func run(_ query: PostgresQuery, on connection: PostgresConnection? = nil) async throws(TeamStoreError) -> PostgresRowSequence {
        do {
            return try await (connection ?? self.connection).query(query, logger: logger)
        } catch {
            throw Self.describe(error, location: location.description)
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws(TeamStoreError) -> T {
        do {
            return try await connection.withTransaction(logger: logger) { connection in try await body(connection) }
        } catch let error as PostgresTransactionError {
            throw Self.describe(error.closureError ?? error.commitError ?? error.beginError ?? error, location: location.description)
        } catch {
            throw Self.describe(error, location: location.description)
        }
    }

    /// One line for an error of the client or the server.
    static func describe(_ error: any Error, location: String) -> TeamStoreError {
        if let error = error as? TeamStoreError { return error }
        guard let error = error as? PSQLError else {
            return TeamStoreError(.unavailable, location: location, "cannot reach the server: \(error)")
        }
        if let info = error.serverInfo {
            let state = info[.sqlState] ?? ""
            let message = info[.message] ?? "an error"
            // 28xxx: invalid authorization; 3D000: no such database.
            if state.hasPrefix("28") || state == "3D000" {
                return TeamStoreError(.refused, location: location, "the server refused the connection: \(message)")
            }
            // 57P01-57P03: the server is shutting down or restarting; 08xxx: connection failures.
            if state.hasPrefix("57P") || state.hasPrefix("08") {
                return TeamStoreError(.unavailable, location: location, "the server went away: \(message)")
            }
            return TeamStoreError(.failed, location: location, "the server reported: \(message) (SQLSTATE \(state))")
        }
        switch error.code {
        case .authMechanismRequiresPassword:
            return TeamStoreError(.refused, location: location, "the server wants a password: give PGPASSWORD or a ~/.pgpass line")
        case .serverClosedConnection, .connectionError, .uncleanShutdown, .clientClosedConnection:
            let reason = error.underlying.map { ": \($0)" } ?? ""
            return TeamStoreError(.unavailable, location: location, "cannot reach the server\(reason)")
        default:
            return TeamStoreError(.failed, location: location, "the PostgreSQL client failed: \(error.code)")
        }
    }
}
#endif
