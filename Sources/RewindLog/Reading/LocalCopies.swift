import Foundation

/// Logs on this machine that stand for sessions kept elsewhere: a team store's sessions,
/// copied for reading. A reader opened at the name a copy stands for reads the copy, and
/// names the store, not the copy, in everything it says.
///
/// Every reader opens logs by name (a replay opens its log again for each chunk it
/// verifies), so the copy is found by name rather than passed along.
package enum LocalCopies {
    private static let lock = NSLock()
    // Read and written only under `lock`.
    nonisolated(unsafe) private static var files: [String: String] = [:]

    /// Makes readers opened at `name` read the log at `file`.
    package static func register(_ file: String, as name: String) {
        lock.lock()
        files[name] = file
        lock.unlock()
    }

    /// Readers opened at `name` read the log at that path again.
    package static func unregister(_ name: String) {
        lock.lock()
        files[name] = nil
        lock.unlock()
    }

    /// The file that stands for `name`, if one does.
    package static func file(standingFor name: String) -> String? {
        lock.lock()
        defer { lock.unlock() }
        return files[name]
    }
}
