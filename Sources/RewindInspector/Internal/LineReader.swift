import Foundation
import RewindLog

/// Reads a file line by line in large chunks, so that a big export never sits in memory whole.
///
/// Lines end with `\n`; a `\r` before it is dropped, and so is a missing newline at the end of
/// the file. Each line comes with its number, from 1.
struct LineReader {
    private let handle: FileHandle
    private let path: String
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where to resume looking for the next newline: the bytes before it have none.
    private var searched = 0
    private var atEnd = false
    private(set) var lineNumber = 0
    private static let chunkSize = 1 << 20

    /// Opens `path`; a missing file is a ``LogError`` of kind `missingFile`, an unreadable
    /// one of kind `unreadable`.
    init(path: String) throws(LogError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw LogError.noFile(at: path)
        }
        guard !isDirectory.boolValue, let handle = FileHandle(forReadingAtPath: path) else {
            throw LogError(.unreadable, path: path, "cannot be read")
        }
        self.handle = handle
        self.path = path
    }

    /// The next line without its newline, or nil at the end of the file.
    mutating func next() throws(LogError) -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[max(start, searched)...].firstIndex(of: UInt8(ascii: "\n")) {
                return line(upTo: newline, next: newline + 1)
            }
            searched = buffer.count
            if atEnd {
                guard start < buffer.count else { return nil }
                return line(upTo: buffer.count, next: buffer.count)
            }
            try refill()
        }
    }

    /// Closes the file.
    func close() {
        try? handle.close()
    }

    private mutating func line(upTo end: Int, next: Int) -> ArraySlice<UInt8> {
        var line = buffer[start..<end]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        start = next
        lineNumber += 1
        return line
    }

    private mutating func refill() throws(LogError) {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            searched -= start
            start = 0
        }
        let chunk: Data?
        do {
            chunk = try handle.read(upToCount: Self.chunkSize)
        } catch {
            throw LogError(.unreadable, path: path, "cannot be read: \(error.localizedDescription)", underlying: error)
        }
        guard let chunk, !chunk.isEmpty else {
            atEnd = true
            return
        }
        buffer.append(contentsOf: chunk)
    }
}
