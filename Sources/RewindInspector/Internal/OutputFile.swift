import Foundation
import RewindLog

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Rules for the files that `export` and `import` write and read, so that neither destroys a
/// log by mistake.
enum OutputFile {
    /// Whether `a` and `b` are the same existing file, whatever the spelling of their paths
    /// (relative, `..`, symbolic links, hard links).
    static func isSameFile(_ a: String, _ b: String) -> Bool {
        guard let first = identity(a), let second = identity(b) else { return false }
        return first == second
    }

    /// Whether the file at `path` starts with SQLite's header: a log, or another database. A
    /// pipe or a device is none, and is not opened: a FIFO opened to read waits for a writer.
    static func isSQLiteDatabase(_ path: String) -> Bool {
        guard isRegularFile(path), let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        return header == Data("SQLite format 3\0".utf8)
    }

    /// Whether `path` is a Rewind log that this rewind can read and write.
    static func isRewindLog(_ path: String) -> Bool {
        (try? LogReader(path: path)) != nil
    }

    /// Whether `path` is, after following symbolic links, a regular file (not a pipe or a
    /// device), which can be read more than once.
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    private static func identity(_ path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }
}
