import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes a new log appear whole or not at all.
///
/// Creating a log in place takes several commits (GRDB's migrations table, then each
/// migration) and a switch to WAL mode. A process killed among them left a file that every
/// command refused for good: only `grdb_migrations` and application id 0 (3 kills of 150 in
/// the first 80 ms of `rewind record`), or a `-journal` from the switch to WAL, which readers
/// took for a missing `-wal` (9 of 150). So the log is built and switched to WAL mode in a
/// hidden file beside it, `.NAME.new-PID-RANDOM`, and only then given its name: by `link(2)`,
/// which never replaces a file, when the path was free; by `rename(2)` over an empty file (one
/// `mktemp` or `touch` made), under an exclusive `flock` on it so that two writers taking the
/// same empty file cannot both replace it.
///
/// A kill before the name is given leaves the path as it was (missing or empty) and the hidden
/// file, which the next writer of that path removes once its process is gone (a kill after it
/// leaves the log and a second name of it, removed the same way).
enum LogCreation {
    /// Whether the file at `path` is missing or empty: a writer makes it a new log.
    static func isNew(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) != 0 || (info.st_mode & S_IFMT == S_IFREG && info.st_size == 0)
    }

    /// Gives `path` a sound empty log in WAL mode, mode 0600, when it is missing or empty;
    /// does nothing otherwise (an existing log is the caller's to check and migrate).
    ///
    /// - Parameter durable: sync what is written (a log); false for a copy that lives only as
    ///   long as its process (``SQLiteSink/init(scratchCopyAt:)``).
    static func createIfNew(_ path: String, durable: Bool = true) throws(LogError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        // Also beside a log that exists: a kill between `link` and removing the hidden file
        // leaves both (1 of 150 kills at birth).
        removeAbandonedFiles(in: folder, for: url.lastPathComponent)
        var info = stat()
        let existing: (device: UInt64, inode: UInt64)?
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG, info.st_size == 0 else { return }
            existing = (UInt64(truncatingIfNeeded: info.st_dev), UInt64(truncatingIfNeeded: info.st_ino))
        } else {
            existing = nil
        }
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        defer {
            for suffix in ["", "-journal", "-wal", "-shm"] { unlink(temporary + suffix) }
        }
        try build(temporary, for: path, folder: folder, durable: durable)
        if let existing {
            try replaceEmptyFile(path, identity: existing, with: temporary)
        } else if link(temporary, path) != 0 {
            let error = errno
            // Another writer made the log meanwhile: it is theirs, and ours is not needed.
            guard error != EEXIST else { return }
            // A file system without hard links: `rename` is atomic too, only not exclusive.
            guard error == EPERM || error == ENOTSUP || error == EOPNOTSUPP, rename(temporary, path) == 0 else {
                throw cannotCreate(path, folder: folder, errno: error)
            }
        }
        if durable { syncFolder(folder) }
    }

    /// Builds the complete schema in `temporary`, in WAL mode, and closes it (which removes its
    /// `-wal` and `-shm`).
    private static func build(_ temporary: String, for path: String, folder: String, durable: Bool) throws(LogError) {
        let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw cannotCreate(path, folder: folder, errno: errno) }
        close(descriptor)
        do {
            var configuration = Configuration()
            if !durable {
                // Each migration is a commit, and each commit two syncs: 6 of a scratch copy's
                // 16 ms (show of a store's step, release build).
                configuration.prepareDatabase { db in
                    try db.execute(sql: "PRAGMA synchronous = OFF")
                    try db.execute(sql: "PRAGMA journal_mode = MEMORY")
                }
            }
            let database = try DatabaseQueue(path: temporary, configuration: configuration)
            try LogSchema.migrator.migrate(database)
            try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
            try database.close()
        } catch let error as DatabaseError {
            throw LogError(.cannotWrite, path: path, "cannot create the log (\(error.message ?? "\(error.resultCode)"))", underlying: error)
        } catch {
            throw LogError(.cannotWrite, path: path, "cannot create the log (\(error))", underlying: error)
        }
    }

    /// Renames `temporary` over the empty file at `path` if it is still the same empty file.
    private static func replaceEmptyFile(_ path: String, identity: (device: UInt64, inode: UInt64), with temporary: String) throws(LogError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        // Gone or unreadable since: the writer's own open of `path` says what is wrong.
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else { return }
        // Another writer replaced it while this one waited: the log is theirs.
        var info = stat()
        guard stat(path, &info) == 0, UInt64(truncatingIfNeeded: info.st_dev) == identity.device, UInt64(truncatingIfNeeded: info.st_ino) == identity.inode,
            info.st_size == 0
        else { return }
        guard rename(temporary, path) == 0 else {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            throw cannotCreate(path, folder: folder, errno: errno)
        }
    }

    /// Removes the hidden files of creations of `name` whose process is gone (killed before it
    /// gave the log its name): `.NAME.new-PID-…` and SQLite's files beside them.
    static func removeAbandonedFiles(in folder: String, for name: String) {
        let prefix = ".\(name).new-"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return }
        for entry in entries where entry.hasPrefix(prefix) {
            guard let pid = Int32(entry.dropFirst(prefix.count).prefix(while: \.isNumber)) else { continue }
            // ESRCH: no such process. EPERM means it exists (another user's): leave its file.
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink((folder as NSString).appendingPathComponent(entry))
        }
    }

    /// Makes the new name durable: a crash after `createIfNew` returns keeps the log.
    private static func syncFolder(_ folder: String) {
        let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    private static func cannotCreate(_ path: String, folder: String, errno error: Int32) -> LogError {
        let reason =
            switch error {
            case ENOENT: "no such folder"
            case EACCES, EPERM, EROFS: "permission denied"
            case ENOSPC: "no space left on the device"
            default: String(cString: strerror(error))
            }
        return LogError(.cannotWrite, path: path, "cannot create the log (\(reason))")
    }
}
