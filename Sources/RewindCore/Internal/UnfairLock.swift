#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The locks of the recorder's hand-off, in storage allocated once: `os_unfair_lock` on Apple
/// platforms, a `pthread_mutex_t` elsewhere. A store's dispatch takes none of them; callers of
/// `record` other than a store, a dropped step and the control items do.
///
/// Synchronization's `Mutex` exists on Apple platforms only from iOS 18 and macOS 15, above
/// the package's floor; on Linux the thread sanitizer cannot see it (its futex and atomics are
/// not instrumented, so every access it guards was reported as a race), where it sees a
/// pthread mutex. `NSLock` would add a class and a dynamic call to each lock operation.
///
/// A pthread call that fails (`EINVAL`, `EDEADLK` from a checking mutex) is a bug of the
/// caller's or memory corrupted: it stops the process, as `os_unfair_lock` does on misuse,
/// rather than run the guarded code unguarded.
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
        let result = pthread_mutex_destroy(pointer)
        precondition(result == 0, "pthread_mutex_destroy failed: \(result)")
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
        let locked = pthread_mutex_lock(pointer)
        precondition(locked == 0, "pthread_mutex_lock failed: \(locked)")
        defer {
            let unlocked = pthread_mutex_unlock(pointer)
            precondition(unlocked == 0, "pthread_mutex_unlock failed: \(unlocked)")
        }
        #endif
        return try body()
    }
}
