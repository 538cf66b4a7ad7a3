#if TeamStore
import Atomics
import NIOCore
import PostgresNIO

extension TeamStore {
    /// How long work on a connection the server closed may take to report the server's own
    /// reason ("terminating connection due to administrator command") before it is given up.
    static let closedConnectionGrace: TimeAmount = .milliseconds(500)

    /// Runs `body`, and gives up on it when the server closes the connection under it.
    ///
    /// PostgresNIO 1.33.2 can leave a query, or its rows, waiting forever when the server goes
    /// away at some moments: a push with the server restarted 0.08-0.12 s in, during the
    /// schema check, hung 5 times out of 5 (tools/store-push-test). `body` runs in a task of
    /// its own, so that one that never returns is left behind (the command line then exits)
    /// rather than waited for.
    func untilClosed<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws(TeamStoreError) -> T {
        do {
            return try await untilClosedPassing(body)
        } catch {
            throw Self.describe(error, location: location.description)
        }
    }

    /// ``untilClosed(_:)`` that throws what `body` throws as it is: an upload's refusal is
    /// not the server's failure.
    func untilClosedPassing<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let location = location.description
        let connection = connection
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let resumed = ManagedAtomic(false)
            // Resumes the continuation once: whichever comes first, the body's end or the
            // connection's closing, wins.
            let resume = { @Sendable (result: Result<T, any Error>) in
                if resumed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
                    continuation.resume(with: result)
                }
            }
            let work = Task {
                do {
                    resume(.success(try await body()))
                } catch {
                    resume(.failure(error))
                }
            }
            connection.closeFuture.whenComplete { _ in
                connection.eventLoop.scheduleTask(in: Self.closedConnectionGrace) {
                    resume(.failure(TeamStoreError(.unavailable, location: location, "the server closed the connection")))
                    work.cancel()
                }
            }
        }
    }
}
#endif
