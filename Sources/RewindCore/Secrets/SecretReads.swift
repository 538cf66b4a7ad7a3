import Atomics

/// Notes whether code read the characters of a redacted ``Secret``: a replay decodes
/// placeholders with one (in the decoder's `userInfo[.secretReads]`) to learn whether a
/// step's outcome may hang on a clear value the log does not keep.
public final class SecretReads: Sendable {
    // Atomic: a reducer may hand a state to other threads.
    private let wasRead = ManagedAtomic(false)

    public init() {}

    /// Whether a placeholder's characters were read since this object was made.
    public var anyRead: Bool {
        wasRead.load(ordering: .acquiring)
    }

    func markRead() {
        wasRead.store(true, ordering: .releasing)
    }
}
