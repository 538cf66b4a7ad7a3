import Foundation

/// Notes whether code read the characters of a redacted ``Secret``: a replay decodes
/// placeholders with one (``CodingUserInfoKey/secretReads``) to learn whether a step's outcome
/// may hang on a clear value the log does not keep.
public final class SecretReads: @unchecked Sendable {
    // `wasRead` is read and written only under `lock`: a reducer may hand a state to other
    // threads. Replay probes are rare, so the lock's cost does not matter.
    private let lock = NSLock()
    private var wasRead = false

    public init() {}

    /// Whether a placeholder's characters were read since this object was made.
    public var anyRead: Bool {
        lock.withLock { wasRead }
    }

    func markRead() {
        lock.withLock { wasRead = true }
    }
}
