import Foundation
import RewindJSON
import RewindLog

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes JSON lines, canonical text and a newline each, in large buffered writes: to
/// standard output, or to a file that appears only once it is complete.
///
/// A file is written under a temporary name in the same folder and renamed over `path` by
/// ``finish()``, so a failed or interrupted export never leaves half a file behind and never
/// damages what `path` held before. The file is created with mode 0600, like a log.
public final class LineWriter {
    private let handle: FileHandle
    private let path: String?
    private let temporaryPath: String?
    private var buffer: [UInt8] = []
    private static let flushThreshold = 1 << 20

    /// Writes to the process's standard output.
    public static func standardOutput() -> LineWriter {
        LineWriter(handle: .standardOutput, path: nil, temporaryPath: nil)
    }

    private init(handle: FileHandle, path: String?, temporaryPath: String?) {
        self.handle = handle
        self.path = path
        self.temporaryPath = temporaryPath
        buffer.reserveCapacity(Self.flushThreshold + 4096)
    }

    /// Writes to a new file that replaces `path` when ``finish()`` is called; into `path` as it
    /// is when it is a device or a pipe (`-o /dev/null`, `-o /dev/stdout`, a FIFO), which a
    /// rename would replace with a file (run as root, it replaced `/dev/null` itself).
    public convenience init(replacingFileAt path: String) throws(FileWriteError) {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            let kind = info.st_mode & S_IFMT
            guard kind == S_IFCHR || kind == S_IFIFO, let handle = FileHandle(forWritingAtPath: path) else {
                throw FileWriteError(path: path, kind == S_IFDIR ? "is a folder, not a file" : "is not a file, a device or a pipe")
            }
            self.init(handle: handle, path: nil, temporaryPath: nil)
            return
        }
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial").path
        guard FileManager.default.createFile(atPath: temporary, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: temporary)
        else {
            throw FileWriteError(path: path, "cannot create a file in \(url.deletingLastPathComponent().path)")
        }
        self.init(handle: handle, path: path, temporaryPath: temporary)
    }

    /// Refuses an `output` that would replace the log being read (`input`) or any SQLite
    /// database: a writer replaces its output whole, and a log is not an output.
    ///
    /// - Parameter option: the option that named `output`, for the message.
    public static func checkOutput(_ output: String, readingFrom input: String, option: String = "--output") throws(LogError) {
        if OutputFile.isSameFile(output, input) {
            throw LogError(.invalidArgument, path: output, "is the log being read; choose another \(option)")
        }
        if OutputFile.isSQLiteDatabase(output) {
            throw LogError(.invalidArgument, path: output, "is a SQLite database (a log?) and would be overwritten; choose another \(option)")
        }
    }

    /// Appends `value`'s canonical text and a newline.
    public func write(_ value: JSONValue) throws(FileWriteError) {
        value.canonicalBytes(into: &buffer)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= Self.flushThreshold { try flush() }
    }

    /// Appends `bytes` as they are: a whole document, such as a report's page.
    public func write(raw bytes: [UInt8]) throws(FileWriteError) {
        buffer += bytes
        if buffer.count >= Self.flushThreshold { try flush() }
    }

    /// Writes what is buffered; for a file, closes it and moves it into place.
    public func finish() throws(FileWriteError) {
        try flush()
        guard let path, let temporaryPath else { return }
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            discard()
            throw FileWriteError(path: path, error.localizedDescription, underlying: error)
        }
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            discard()
            throw FileWriteError(path: path, reason)
        }
    }

    /// Abandons a file being written: the temporary file is removed and `path` is untouched.
    public func discard() {
        guard let temporaryPath else { return }
        try? handle.close()
        try? FileManager.default.removeItem(atPath: temporaryPath)
    }

    private func flush() throws(FileWriteError) {
        guard !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            discard()
            throw FileWriteError(path: path ?? "standard output", error.localizedDescription, underlying: error)
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
