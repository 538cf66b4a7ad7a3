import Foundation

/// A value that several threads read and change under a lock, for state off the dispatch
/// path (a simulated clock, an in-memory sink, the chunks of a replay); iOS 16 and macOS 13 lack Synchronization's
/// `Mutex`.
package final class LockedValue<Value: Sendable>: @unchecked Sendable {
    // Sendable by hand: `value` is only touched inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
