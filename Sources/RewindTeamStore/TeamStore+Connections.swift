#if Servers
import Atomics
import PostgresNIO
import RewindLog
import RewindUpload

extension TeamStore {
    /// Runs `body` on a connection of the pool, given up when the server closes the connection
    /// under it (``ClosingWatch``); waits at most `connectionWait` for a connection.
    ///
    /// What `body` throws comes out as it is (an upload's refusal is not the server's failure);
    /// the client's own errors, as ``StoreError``.
    ///
    /// The wait is this code's: postgres-nio 1.33's pool has a connect timeout and an idle
    /// timeout but none for a lease, which waits until a connection comes or its task is
    /// cancelled (the pool retrying to connect all the while, 60 s and more while the server
    /// restarts). The deadline's task cancels the lease's, which the pool then withdraws.
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
                        throw StoreError(.unavailable, location: location, "cannot reach the server: no connection within \(wait)")
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
