import Foundation
import RewindCore
import RewindLog

/// One session a collector shares, `https://host/sessions/UUID`, as a ``SessionStore``: its
/// log is fetched (`GET /sessions/UUID/log`, with a read token) into a folder only its user
/// can read, and read there under the URL's name, every check a log gets applying.
public struct CollectorSessionStore: SessionStore {
    public let name: String
    private let client: CollectorClient
    private let id: UUID

    /// The session `location` names; `token` is a read token.
    public init(_ location: String, token: String?) throws(CollectorClientError) {
        let (root, id) = try CollectorClient.parse(location)
        guard let id else {
            throw CollectorClientError(.invalidLocation, location: location, "name one session: https://HOST/sessions/UUID")
        }
        guard let token, !token.isEmpty else {
            throw CollectorClientError(.unauthorized, location: location, "a collector's session needs a read token: --token TOKEN or REWIND_TOKEN")
        }
        self.name = location
        self.client = CollectorClient(root: root, token: token, retry: RetryPolicy(attempts: 3))
        self.id = id
    }

    package func sessions(matching filter: SessionFilter) async throws -> [SessionSummary] {
        let readable = try await readable(SessionSelection(.every))
        defer { readable.discard() }
        return try LogReader(path: readable.path).sessions().filter(filter.matches)
    }

    package func readable(_ selection: SessionSelection) async throws -> ReadableSessions {
        let data = try await client.fetch(id, "log")
        let folder = try ReadableSessions.makeCopyFolder("collector")
        let file = folder + "/session.rewind"
        guard FileManager.default.createFile(atPath: file, contents: data, attributes: [.posixPermissions: 0o600]) else {
            try? FileManager.default.removeItem(atPath: folder)
            throw CollectorClientError(.unavailable, location: name, "cannot keep the fetched session in \(folder)")
        }
        return ReadableSessions(copy: file, in: folder, as: name, of: 1)
    }

    /// The session, fetched: a collector says nothing of a session without sending it.
    public func session(_ id: UUID) async throws -> (summary: SessionSummary, inflatedBytes: Int)? {
        guard id == self.id else { return nil }
        let readable = try await readable(SessionSelection(.every))
        defer { readable.discard() }
        let reader = try LogReader(path: readable.path)
        guard let summary = try reader.sessions().first(where: { $0.id == id }) else { return nil }
        return (summary, try reader.inflatedSize(of: summary))
    }

    /// Sent to the collector (`POST /v1/sessions/UUID/verdict`, with the read token).
    public func record(_ verdict: ReplayVerdict, for id: UUID) async throws -> Bool {
        try await client.record(verdict, for: id)
    }

    /// The session's log, as the collector sends it, into `path`.
    public func download(to path: String) async throws {
        let data = try await client.fetch(id, "log")
        guard FileManager.default.createFile(atPath: path, contents: data) else {
            throw LogError(.cannotWrite, path: path, "cannot write the fetched session")
        }
    }

    public func close() async {}
}
