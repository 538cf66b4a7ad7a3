import RewindInspector
import RewindTeamStore

/// The store a verb's location names: a team store for a `postgres://` URL, a log otherwise.
/// The one place the command line tells them apart; the verbs read either alike.
enum SessionStores {
    /// The store at `location`.
    static func open(_ location: String) async throws -> any SessionStore {
        guard TeamStoreLocation.isLocation(location) else { return LogFileStore(path: location) }
        return try await TeamStore.open(try TeamStoreLocation(location))
    }

    /// Calls `body` with `selection` of the store at `location` made readable (readers open
    /// its `path`); a store elsewhere is let go of before `body` runs, and its copy removed
    /// after.
    static func reading<T>(_ location: String, _ selection: SessionSelection, _ body: (ReadableSessions) async throws -> T) async throws -> T {
        let store = try await open(location)
        let readable: ReadableSessions
        do {
            readable = try await store.readable(selection)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
        defer { readable.discard() }
        return try await body(readable)
    }

    /// Whether `location` names a store elsewhere rather than a log on this machine.
    static func isElsewhere(_ location: String) -> Bool {
        TeamStoreLocation.isLocation(location)
    }
}
