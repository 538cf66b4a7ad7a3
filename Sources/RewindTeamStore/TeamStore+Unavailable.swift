#if !Servers
import Foundation
import RewindCore
import RewindLog

/// The team store of a build without the `Servers` trait: every way in says so, in one
/// line, and how to get a build that has it. No instance is ever made.
public final class TeamStore: Sendable {
    public let location: TeamStoreLocation

    private init(location: TeamStoreLocation) {
        self.location = location
    }

    private static func unavailable(_ location: TeamStoreLocation) -> TeamStoreError {
        TeamStoreError(
            .notBuilt, location: location.description,
            "this rewind was built without the team store: build it with the Servers trait (swift run --traits Servers rewind …)")
    }

    public static func open(
        _ location: TeamStoreLocation, connections: Int = 4, connectionWait: Duration = .seconds(10)
    ) async throws(TeamStoreError) -> TeamStore {
        throw unavailable(location)
    }

    package func sessions(matching filter: SessionFilter = SessionFilter()) async throws(TeamStoreError) -> [SessionSummary] {
        throw Self.unavailable(location)
    }

    public func copy(of selector: String) async throws(TeamStoreError) -> StoredSessionCopy {
        throw Self.unavailable(location)
    }

    public func close() async {}
}

extension TeamStore: SessionDestination {
    public func receive(_ upload: StoredSessionCopy) async throws -> ReceivedBlocks {
        throw Self.unavailable(location)
    }

    public func progress(of id: UUID) async throws -> ReceivedBlocks? {
        throw Self.unavailable(location)
    }
}

extension TeamStore: SessionStore {
    public var name: String { location.description }

    package func readable(_ selection: SessionSelection) async throws -> ReadableSessions {
        throw Self.unavailable(location)
    }

    public func session(_ id: UUID) async throws -> (summary: SessionSummary, inflatedBytes: Int)? {
        throw Self.unavailable(location)
    }

    public func record(_ verdict: ReplayVerdict, for id: UUID) async throws -> Bool {
        throw Self.unavailable(location)
    }
}
#endif
