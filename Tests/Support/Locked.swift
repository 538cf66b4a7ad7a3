import Foundation

/// A value that tests change from several threads, under a lock (Synchronization's `Mutex`
/// needs iOS 18 and macOS 15, above the package's floor).
public final class Locked<Value: Sendable>: @unchecked Sendable {
    // Sendable by hand: `value` is only touched inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
