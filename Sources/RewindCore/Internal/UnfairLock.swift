#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The lock of the recorder's hand-off, in storage allocated once: `os_unfair_lock` on Apple
/// platforms, a `pthread_mutex_t` elsewhere.
///
/// Synchronization's `Mutex` exists on Apple platforms only from iOS 18 and macOS 15, above
/// the package's floor; on Linux the thread sanitizer cannot see it (its futex and atomics are
/// not instrumented, so every access it guards was reported as a race), where it sees a
/// pthread mutex. Interleaved `rewind bench` runs put the recording dispatch at 121–128 ns with
/// either (126–127 with `Mutex` and `Atomic` before the floor moved, 131–132 with this lock and
/// swift-atomics, in one later run). `NSLock` would add a class and a dynamic call to each of
/// the dispatch path's two lock operations.
@usableFromInline
struct UnfairLock: ~Copyable, @unchecked Sendable {
    // Sendable by hand: the lock is made to be shared; it guards its own state. The storage
    // must not move, so it is allocated, and freed when the owner goes.
    #if canImport(Darwin)
    @usableFromInline let pointer: UnsafeMutablePointer<os_unfair_lock>
    #else
    @usableFromInline let pointer: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    init() {
        pointer = .allocate(capacity: 1)
        #if canImport(Darwin)
        pointer.initialize(to: os_unfair_lock())
        #else
        pointer.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(pointer, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
        #endif
    }

    deinit {
        #if !canImport(Darwin)
        pthread_mutex_destroy(pointer)
        #endif
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    @inlinable
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        #if canImport(Darwin)
        os_unfair_lock_lock(pointer)
        defer { os_unfair_lock_unlock(pointer) }
        #else
        pthread_mutex_lock(pointer)
        defer { pthread_mutex_unlock(pointer) }
        #endif
        return try body()
    }
}
