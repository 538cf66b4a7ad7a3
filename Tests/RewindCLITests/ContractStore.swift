import Foundation
import GRDB
import RewindLog
import RewindTeamStore
import RewindTestSupport
import RewindUpload
import Testing

/// One of the three stores, opened fresh for one case of ``StoreContractTests`` from its
/// location, as every verb opens it (`SessionStores.withStore`): a log on this machine, a team store
/// on PostgreSQL, or a collector (`rewind serve`) over HTTP, then used through ``SessionStore``
/// alone.
@MainActor
final class ContractStore {
    enum Kind: String, Sendable, CaseIterable {
        case log, postgreSQL, collector
    }

    /// The app every case's sessions are of: the collector's upload token is this app's.
    static let app = "tests"

    let kind: Kind
    /// The store, as its location opens it: a collector's at its root, with the upload token.
    let opened: any SessionStore
    /// Where a replay's verdict goes: the store, or for a collector the store with the read
    /// token (CI keeps the verdicts of what it read).
    let verdicts: any SessionStore
    /// The store that reads session `id`: the store, or a collector's at `/sessions/ID` with
    /// the read token (a collector reads the one session its location names).
    let reader: @MainActor (UUID) async throws -> any SessionStore
    private let otherApp: @MainActor (String) async throws -> any SessionStore
    /// Changes a byte of the stored block of `firstStep` of session `id`, behind the store's back.
    let damage: @MainActor (_ id: UUID, _ firstStep: Int) async throws -> Void
    private let keep: [AnyObject]

    private init(
        kind: Kind, opened: any SessionStore, verdicts: (any SessionStore)? = nil,
        reading: (@MainActor (UUID) async throws -> any SessionStore)? = nil,
        otherApp: (@MainActor (String) async throws -> any SessionStore)? = nil,
        damage: @escaping @MainActor (UUID, Int) async throws -> Void, keep: [AnyObject]
    ) {
        self.damage = damage
        self.kind = kind
        self.opened = opened
        self.verdicts = verdicts ?? opened
        self.reader = reading ?? { _ in opened }
        self.otherApp = otherApp ?? { _ in opened }
        self.keep = keep
    }

    /// Calls `body` with a fresh store of `kind`, open until `body` returns.
    static func with(_ kind: Kind, _ body: (ContractStore) async throws -> Void) async throws {
        switch kind {
        case .log:
            let folder = try TemporaryDirectory()
            let path = folder.path("store.rewind")
            // A log made empty, as `rewind serve --store` or a first push makes it.
            try SQLiteSink(path: path).close()
            try await SessionStores.withStore(path) { opened in
                try await body(ContractStore(kind: kind, opened: opened, damage: { id, first in try Self.damage(id, first, inLog: path) }, keep: [folder]))
            }
        case .postgreSQL:
            let database = try FreshStore()
            // The wait for a connection only stops a hung test: in a full suite on two cores, one
            // store's first connection took longer than the default, 10 s.
            try await SessionStores.withStore(database.url, connectionWait: .seconds(600)) { opened in
                try await body(
                    ContractStore(
                        kind: kind, opened: opened,
                        damage: { id, first in
                            _ = try TestServer.psql(
                                """
                                UPDATE rewind_block SET data = set_byte(data, length(data) / 2, get_byte(data, length(data) / 2) # 255)
                                WHERE session = '\(id.uuidString)' AND first_step = \(first)
                                """, database: database.name)
                        }, keep: [database]))
            }
        case .collector:
            let collector = try await RunningCollector()
            let url = collector.url
            try await SessionStores.withStore(url, token: collector.upload) { opened in
                try await SessionStores.withStore(url, token: collector.read) { verdicts in
                    try await body(
                        ContractStore(
                            kind: kind, opened: opened, verdicts: verdicts,
                            reading: { id in try CollectorStore("\(url)/sessions/\(id.uuidString)", token: collector.read) },
                            otherApp: { app in try CollectorStore(url, token: try await collector.uploadToken(app: app)) },
                            damage: { id, first in try Self.damage(id, first, inLog: collector.store) }, keep: [collector]))
                }
            }
        }
    }

    /// The store as another app's upload token reaches it: `copy`, sent through it, is that
    /// app's (a collector sets an upload's app to its token's; the others keep the copy's).
    func store(forApp app: String, sending copy: inout StoredSessionCopy) async throws -> any SessionStore {
        copy.metadata.app = app
        return try await otherApp(app)
    }

    /// The session `id` as the store gives it to read, nil when it holds none of that identity.
    func held(_ id: UUID) async throws -> StoredSessionCopy? {
        let store = try await reader(id)
        guard try await store.session(id) != nil else { return nil }
        let readable = try await store.readable(SessionSelection(.one(id.uuidString)))
        defer { readable.discard() }
        let reader = try LogReader(path: readable.path)
        let session = try #require(try reader.sessions().first { $0.id == id })
        return try reader.storedCopy(of: session)
    }

    private static func damage(_ id: UUID, _ firstStep: Int, inLog path: String) throws {
        try DatabaseQueue(path: path).write { db in
            let block = "first_step = ? AND session_id = (SELECT session_id FROM session_meta WHERE uuid = ?)"
            guard let data = try Data.fetchOne(db, sql: "SELECT data FROM event_block WHERE \(block)", arguments: [firstStep, id.uuidString]) else {
                throw DamageMissed()
            }
            var bytes = [UInt8](data)
            bytes[bytes.count / 2] ^= 0xFF
            try db.execute(sql: "UPDATE event_block SET data = ? WHERE \(block)", arguments: [Data(bytes), firstStep, id.uuidString])
        }
    }

    private struct DamageMissed: Error {}
}
