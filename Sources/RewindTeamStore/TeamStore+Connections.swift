#if Servers
import Atomics
import PostgresNIO
import RewindLog

extension TeamStore {
    /// Runs `body` on a connection of the pool, given up when the server closes the connection
    /// under it (``ClosingWatch``); waits at most `connectionWait` for a connection.
    ///
    /// What `body` throws comes out as it is (an upload's refusal is not the server's failure);
    /// the client's own errors, as ``TeamStoreError``.
    func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let client = client, closing = closing, location = location.description, wait = connectionWait
        let leased = ManagedAtomic(false)
        do {
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask {
                    try await client.withConnection { connection in
                        leased.store(true, ordering: .releasing)
                        return try await closing.untilClosed(connection, location: location, body)
                    }
                }
                group.addTask {
                    try await Task.sleep(for: wait)
                    guard leased.load(ordering: .acquiring) else {
                        throw TeamStoreError(.unavailable, location: location, "cannot reach the server: no connection within \(wait)")
                    }
                    return nil
                }
                while let next = try await group.next() {
                    if let value = next {
                        group.cancelAll()
                        return value
                    }
                }
                throw CancellationError()
            }
        } catch let error as UploadError {
            throw error
        } catch {
            throw Self.describe(error, location: location)
        }
    }
}
#endif
