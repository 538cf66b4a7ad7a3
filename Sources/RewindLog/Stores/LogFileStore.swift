import Foundation

/// A log on this machine, as a ``SessionStore``: read in place.
public struct LogFileStore: SessionStore {
    /// The log's path.
    public let name: String

    public init(path: String) {
        self.name = path
    }

    public func sessions(matching filter: SessionFilter) async throws -> [SessionSummary] {
        try LogReader(path: name).sessions().filter(filter.matches)
    }

    /// The log itself: its readers choose the sessions and say what is missing.
    public func readable(_ selection: SessionSelection) async throws -> ReadableSessions {
        ReadableSessions(inPlace: name)
    }

    public func session(_ id: UUID) async throws -> (summary: SessionSummary, inflatedBytes: Int)? {
        let reader = try LogReader(path: name)
        guard let summary = try reader.sessions().first(where: { $0.id == id }) else { return nil }
        return (summary, try reader.inflatedSize(of: summary))
    }

    public func close() async {}
}
