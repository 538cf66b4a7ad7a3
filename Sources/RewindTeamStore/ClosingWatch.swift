#if Servers
import Atomics
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO
import RewindLog
import RewindUpload

/// Gives up on work on a connection the server closed, which PostgresNIO can leave waiting.
///
/// PostgresNIO 1.33.2 can leave a query, or its rows, waiting forever when the server goes
/// away at some moments: a push with the server restarted 0.08-0.12 s in, during the schema
/// check, hung 5 times out of 5 (tools/store-push-test). Work runs in a task of its own, so
/// that one that never returns is left behind rather than waited for.
///
/// One callback on each connection's `closeFuture`, however many requests it serves: a
/// future's callbacks are kept until it completes, and a pooled connection lives for hours.
final class ClosingWatch: Sendable {
    /// How long work on a connection the server closed may take to report the server's own
    /// reason ("terminating connection due to administrator command") before it is given up.
    static let grace: TimeAmount = .milliseconds(500)

    private struct Watched {
        var next = 0
        var waiting: [Int: @Sendable () -> Void] = [:]
    }

    /// By connection id: the work at work on each connection watched.
    private let watched = NIOLockedValueBox<[Int: Watched]>([:])

    /// How many connections are watched: each live one the store has used, no more.
    var connectionsWatched: Int { watched.withLockedValue { $0.count } }
    /// How many pieces of work wait on a connection's closing: those under way, no more.
    var waiting: Int { watched.withLockedValue { $0.values.reduce(0) { $0 + $1.waiting.count } } }

    /// Runs `body` on `connection`, and gives up on it when the server closes the connection
    /// under it: what `body` throws comes out as it is; a closed connection, as `.unavailable`.
    func untilClosed<T: Sendable>(
        _ connection: PostgresConnection, location: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let resumed = ManagedAtomic(false)
        var key = 0
        let result: T = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            // Resumes the continuation once: whichever comes first, the body's end or the
            // connection's closing, wins.
            let resume = { @Sendable (result: Result<T, any Error>) in
                if resumed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
                    continuation.resume(with: result)
                }
            }
            let work = Task {
                do {
                    resume(.success(try await body(connection)))
                } catch {
                    resume(.failure(error))
                }
            }
            key = watch(connection) {
                resume(.failure(StoreError(.unavailable, location: location, "the server closed the connection")))
                work.cancel()
            }
        }
        unwatch(connection, key)
        return result
    }

    private func watch(_ connection: PostgresConnection, _ closed: @escaping @Sendable () -> Void) -> Int {
        let (key, first) = watched.withLockedValue { watched in
            let first = watched[connection.id] == nil
            var entry = watched[connection.id] ?? Watched()
            entry.next += 1
            entry.waiting[entry.next] = closed
            watched[connection.id] = entry
            return (entry.next, first)
        }
        if first {
            let id = connection.id
            connection.closeFuture.whenComplete { _ in
                connection.eventLoop.scheduleTask(in: Self.grace) {
                    let waiting = self.watched.withLockedValue { $0.removeValue(forKey: id)?.waiting.values }
                    for closed in waiting.map(Array.init) ?? [] { closed() }
                }
            }
        }
        return key
    }

    private func unwatch(_ connection: PostgresConnection, _ key: Int) {
        watched.withLockedValue { watched in
            _ = watched[connection.id]?.waiting.removeValue(forKey: key)
        }
    }
}
#endif
