import Foundation

/// What the first bytes of a log file say, read without SQLite: whether it is in WAL mode,
/// and whether the write-ahead log that should sit beside it is missing.
///
/// A reader needs this before it opens the file. SQLite opens a WAL-mode database whose
/// `-wal` is missing by creating an empty `-wal` and `-shm` beside it, which a read-only
/// command must not do, and then finds a file whose data may be all in the missing `-wal`
/// (a log copied while a recorder held it open) and calls it an empty database.
struct LogFileHeader {
    /// The log's path.
    let path: String
    /// Whether the header's read and write versions (bytes 18 and 19) are 2: WAL mode.
    let isWALMode: Bool
    /// The size the header gives the database, in bytes, when SQLite would trust it: its page
    /// count (bytes 28–31) is valid while the change counter (24–27) equals the
    /// version-valid-for number (92–95).
    let declaredSize: Int?

    /// Reads the header of `path`; nil when the file cannot be read or is too short to be a
    /// SQLite database (SQLite then reports the problem itself).
    init?(path: String) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let bytes = try? handle.read(upToCount: 100), bytes.count == 100,
            bytes.starts(with: Array("SQLite format 3\u{0}".utf8))
        else { return nil }
        self.path = path
        let start = bytes.startIndex
        isWALMode = bytes[start + 18] == 2 && bytes[start + 19] == 2
        func integer(at offset: Int, count: Int) -> Int {
            bytes[(start + offset)..<(start + offset + count)].reduce(0) { $0 << 8 | Int($1) }
        }
        // A page size of 1 stands for 65,536.
        let pageSize = integer(at: 16, count: 2) == 1 ? 65_536 : integer(at: 16, count: 2)
        let pages = integer(at: 28, count: 4)
        declaredSize = pages > 0 && integer(at: 24, count: 4) == integer(at: 92, count: 4) ? pages * pageSize : nil
    }

    /// The error for a file shorter than its header says: cut off (a copy that stopped, a full
    /// disk). SQLite itself notices only when a read reaches a missing page, so which command
    /// noticed depended on where the rows lay; checked before opening, every one does.
    ///
    /// Only a file no writer holds: while a `-wal` (or a `-journal`) is beside it, a checkpoint
    /// writes page 1, with the new page count, before the pages that extend the file (a reader
    /// during a recording saw 114,688 declared and 110,592 there). The header was read first,
    /// then the `-wal` looked for, then the size: a file only grows, so a writer that comes in
    /// between cannot make a whole file look short.
    var truncation: LogError? {
        let manager = FileManager.default
        guard let declaredSize, !manager.fileExists(atPath: path + "-wal"), !manager.fileExists(atPath: path + "-journal"),
            let size = try? manager.attributesOfItem(atPath: path)[.size] as? Int, size < declaredSize
        else { return nil }
        return LogError.truncated(path, expected: declaredSize, actual: size)
    }

    /// Whether the file is in WAL mode and no `-wal` file is beside it: either a recorder
    /// checkpointed and closed without leaving WAL mode (the file is whole), or the file was
    /// copied without its `-wal` (the file holds what was checkpointed, maybe nothing).
    var isMissingItsWAL: Bool {
        isWALMode && !FileManager.default.fileExists(atPath: path + "-wal")
    }

    /// A URI that opens the file as immutable: SQLite reads the main file only, takes no
    /// locks and creates no `-wal` or `-shm`. Safe only when no process writes the file,
    /// which a missing `-wal` shows: a writer in WAL mode keeps one for as long as it runs.
    var immutableURI: String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        // In a SQLite URI only these three characters of a path need escaping.
        var escaped = ""
        for character in absolute {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        return "file:\(escaped)?immutable=1"
    }
}
