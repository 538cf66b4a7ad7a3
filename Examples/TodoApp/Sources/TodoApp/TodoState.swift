import RewindCodable
import RewindCore

/// The todo list screen.
@RewindCodable
public struct TodoState: Codable, Equatable, Sendable {
    /// Which items the list shows.
    @RewindCodable
    public enum Filter: String, Codable, Sendable, CaseIterable {
        case all, active, completed
    }

    /// Where the last sync stands.
    @RewindCodable
    public enum SyncStatus: Codable, Equatable, Sendable {
        case idle
        case syncing
        case synced(revision: Int)
        case failed(message: String)
    }

    public var items: [TodoItem] = []
    public var filter = Filter.all
    /// The id the next item gets: ids come from the state, never from `UUID()`, so a replay
    /// gives the same ones.
    public var nextID = 1
    /// The token the sync service wants. A secret: the log keeps only its length.
    public var apiToken = Secret("")
    public var sync = SyncStatus.idle

    public init() {}

    /// The items the filter lets through.
    public var visibleItems: [TodoItem] {
        switch filter {
        case .all: items
        case .active: items.filter { !$0.isDone }
        case .completed: items.filter(\.isDone)
        }
    }
}
