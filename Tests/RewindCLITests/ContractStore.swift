import Foundation
import RewindLog
import RewindTeamStore
import RewindTestSupport
import RewindUpload
import Testing

/// One of the three stores, opened fresh for one case of ``StoreContractTests``: a log on this
/// machine, a team store on PostgreSQL, or a collector (`rewind serve`) over HTTP, each through
/// the public protocol alone.
@MainActor
final class ContractStore {
    enum Kind: String, Sendable, CaseIterable {
        case log, postgreSQL, collector
    }

    /// The app every case's sessions are of: the collector's upload token is this app's.
    static let app = "tests"

    let kind: Kind
    let destination: any SessionDestination
    /// The session as the store holds it, nil when it holds none of that identity.
    let held: @MainActor (UUID) async throws -> StoredSessionCopy?
    /// Where a replay's verdict goes: the destination, or for a collector a client with the
    /// read token (CI keeps the verdicts of what it read).
    let verdicts: any SessionDestination
    private let otherApp: @MainActor (String) async throws -> any SessionDestination
    private let keep: [AnyObject]

    private init(
        kind: Kind, destination: any SessionDestination, verdicts: (any SessionDestination)? = nil,
        held: @escaping @MainActor (UUID) async throws -> StoredSessionCopy?,
        otherApp: @escaping @MainActor (String) async throws -> any SessionDestination, keep: [AnyObject]
    ) {
        self.kind = kind
        self.destination = destination
        self.verdicts = verdicts ?? destination
        self.held = held
        self.otherApp = otherApp
        self.keep = keep
    }

    static func open(_ kind: Kind) async throws -> ContractStore {
        switch kind {
        case .log:
            let folder = try TemporaryDirectory()
            let path = folder.path("store.rewind")
            let destination = try LogFileDestination(path: path)
            return ContractStore(
                kind: kind, destination: destination, held: { id in try Self.held(id, inLog: path) }, otherApp: { _ in destination },
                keep: [folder])
        case .postgreSQL:
            let database = try FreshStore()
            // The wait for a connection only stops a hung test: in a full suite on two cores, one
            // store's first connection took longer than the default, 10 s.
            let store = try await TeamStore.open(try TeamStoreLocation(database.url), connectionWait: .seconds(600))
            return ContractStore(
                kind: kind, destination: store,
                held: { id in
                    guard try await store.session(id) != nil else { return nil }
                    return try await store.copy(of: id.uuidString)
                }, otherApp: { _ in store }, keep: [database])
        case .collector:
            let collector = try await RunningCollector()
            let root = try #require(URL(string: collector.url))
            return ContractStore(
                kind: kind, destination: CollectorClient(root: root, token: collector.upload),
                verdicts: CollectorClient(root: root, token: collector.read),
                held: { id in try Self.held(id, inLog: collector.store) },
                otherApp: { app in CollectorClient(root: root, token: try await collector.uploadToken(app: app)) }, keep: [collector])
        }
    }

    /// The store as another app's upload token reaches it: `copy`, sent through it, is that
    /// app's (a collector sets an upload's app to its token's; the others keep the copy's).
    func destination(forApp app: String, sending copy: inout StoredSessionCopy) async throws -> any SessionDestination {
        copy.metadata.app = app
        return try await otherApp(app)
    }

    func close() async {
        await destination.close()
    }

    private static func held(_ id: UUID, inLog path: String) throws -> StoredSessionCopy? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let reader = try LogReader(path: path)
        guard let session = try reader.sessions().first(where: { $0.id == id }) else { return nil }
        return try reader.storedCopy(of: session)
    }
}
