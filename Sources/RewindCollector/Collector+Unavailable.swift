#if !Servers
import Foundation

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Collector {
    /// A build without the `Servers` trait has no server: this says so.
    public func run(
        host: String, port: Int, tls: (certificate: String, key: String)? = nil, accessLog: AccessLog? = nil,
        onListening: @escaping @Sendable (Int) -> Void
    ) async throws {
        throw CollectorError(
            status: 500, code: "not_built",
            "this rewind was built without the collector: build it with the Servers trait (swift run --traits Servers rewind serve …)")
    }
}

/// The access log of a build without the `Servers` trait: never made, as no server runs.
public final class AccessLog: Sendable {
    public enum Destination: Sendable, Equatable {
        case standardOutput
        case file(String)
        case off
    }

    public init(_ destination: Destination) throws(CollectorError) {
        throw CollectorError(
            status: 500, code: "not_built",
            "this rewind was built without the collector: build it with the Servers trait (swift run --traits Servers rewind serve …)")
    }
}

/// The token file of a build without the `Servers` trait: every way in says so.
public struct CollectorTokens: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    private var unavailable: CollectorError {
        CollectorError(
            status: 500, code: "not_built",
            "this rewind was built without the collector: build it with the Servers trait (swift run --traits Servers rewind serve …)")
    }

    public func load() throws(CollectorError) -> [CollectorToken] { throw unavailable }

    public func create(app: String, scope: CollectorToken.Scope) throws(CollectorError) -> String { throw unavailable }

    public func revoke(id: String) throws(CollectorError) -> Bool { throw unavailable }
}

/// The share links of a build without the `Servers` trait: every way in says so.
public struct ShareLinks: Sendable {
    public let path: String

    public init(tokenFile: String) {
        path = tokenFile + ".links"
    }

    public static let longest: TimeInterval = 366 * 86_400

    private var unavailable: CollectorError {
        CollectorError(
            status: 500, code: "not_built",
            "this rewind was built without the collector: build it with the Servers trait (swift run --traits Servers rewind serve …)")
    }

    public func create(session: UUID, expires: Date, base: URL, now: Date = Date()) throws(CollectorError) -> URL { throw unavailable }

    public func revokeAll(now: Date = Date()) throws(CollectorError) { throw unavailable }
}
#endif
