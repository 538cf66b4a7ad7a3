import Foundation
import RewindCore
import RewindLog

/// A collector as a ``SessionStore``, spoken to through a ``CollectorClient``: at its root,
/// `https://host[:port]`, it takes copies (`rewind push`, with an upload token); at one session
/// it shares, `https://host[:port]/sessions/UUID`, it is read too: the session's log is fetched
/// (`GET /sessions/UUID/log`, with a read token) into a folder only its user can read, and read
/// there under the URL's name, every check a log gets applying.
///
/// A collector lists its sessions for people (its sessions page) and tools (`GET /v1/sessions`)
/// by its own filters: as a store it reads the one session its location names.
public struct CollectorStore: SessionStore {
    public let name: String
    private let client: CollectorClient
    /// The session the location names; nil at the collector's root.
    private let id: UUID?

    /// The collector at `location`, with `token`: a read token for a session, an upload token
    /// for the root.
    public init(_ location: String, token: String?) throws(StoreError) {
        let (root, id) = try CollectorClient.parse(location)
        guard let token, !token.isEmpty else {
            throw StoreError(
                .unauthorized, location: location,
                id == nil
                    ? "a collector needs an upload token: --token TOKEN or REWIND_TOKEN"
                    : "a collector's session needs a read token: --token TOKEN or REWIND_TOKEN")
        }
        self.name = location
        self.client = CollectorClient(root: root, token: token, retry: id == nil ? RetryPolicy() : RetryPolicy(attempts: 3))
        self.id = id
    }

    /// Its client, which speaks to the collector's root (a link for a session:
    /// ``CollectorClient/link(for:)``).
    public var collector: CollectorClient { client }

    package func sessions(matching filter: SessionFilter) async throws -> [SessionSummary] {
        let readable = try await readable(SessionSelection(.every))
        defer { readable.discard() }
        return try LogReader(path: readable.path).sessions().filter(filter.matches)
    }

    package func readable(_ selection: SessionSelection) async throws -> ReadableSessions {
        let data = try await client.fetch(try sessionNamed(), "log")
        let folder = try ReadableSessions.makeCopyFolder("collector")
        let file = folder + "/session.rewind"
        guard FileManager.default.createFile(atPath: file, contents: data, attributes: [.posixPermissions: 0o600]) else {
            try? FileManager.default.removeItem(atPath: folder)
            throw StoreError(.unavailable, location: name, "cannot keep the fetched session in \(folder)")
        }
        return ReadableSessions(copy: file, in: folder, as: name, of: 1)
    }

    /// The session, fetched: a collector says nothing of a session without sending it.
    public func session(_ id: UUID) async throws -> (summary: SessionSummary, inflatedBytes: Int)? {
        guard id == (try sessionNamed()) else { return nil }
        let readable: ReadableSessions
        do {
            readable = try await self.readable(SessionSelection(.every))
        } catch StoreError.noSuchSession {
            return nil
        }
        defer { readable.discard() }
        let reader = try LogReader(path: readable.path)
        guard let summary = try reader.sessions().first(where: { $0.id == id }) else { return nil }
        return (summary, try reader.inflatedSize(of: summary))
    }

    /// Sent to the collector's root (`POST /v1/sessions/UUID/blocks`), as an app's ``Uploader``
    /// sends it.
    public func receive(_ upload: StoredSessionCopy) async throws -> ReceivedBlocks {
        try await client.receive(upload)
    }

    public func progress(of id: UUID) async throws -> ReceivedBlocks? {
        try await client.progress(of: id)
    }

    /// Sent to the collector (`POST /v1/sessions/UUID/verdict`).
    public func record(_ verdict: ReplayVerdict, for id: UUID) async throws -> Bool {
        try await client.record(verdict, for: id)
    }

    public func close() async {}

    private func sessionNamed() throws(StoreError) -> UUID {
        guard let id else {
            throw StoreError(.invalidLocation, location: name, "name one session to read: https://HOST/sessions/UUID")
        }
        return id
    }
}
