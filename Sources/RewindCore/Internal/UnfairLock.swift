#if canImport(Darwin)
import Darwin
#else
import Synchronization
#endif

/// The lock of the recorder's hand-off: `os_unfair_lock` on Apple platforms, Synchronization's
/// `Mutex` elsewhere.
///
/// `Mutex` exists on Apple platforms only from iOS 18 and macOS 15, above the package's floor;
/// `NSLock` would add a class and a dynamic call to each of the dispatch path's two lock
/// operations (measured on Linux: pthread_mutex cost the recording dispatch 5-10 ns).
@usableFromInline
struct UnfairLock: ~Copyable, @unchecked Sendable {
    // Sendable by hand: the lock is made to be shared; it guards its own state.
    #if canImport(Darwin)
    /// `os_unfair_lock` must not move, so it lives in storage of its own.
    @usableFromInline let pointer: UnsafeMutablePointer<os_unfair_lock>

    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: os_unfair_lock())
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    @inlinable
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        os_unfair_lock_lock(pointer)
        defer { os_unfair_lock_unlock(pointer) }
        return try body()
    }
    #else
    @usableFromInline let mutex = Mutex(())

    init() {}

    @inlinable
    func withLock<T>(_ body: () -> T) -> T {
        mutex.withLock { _ in body() }
    }
    #endif
}
