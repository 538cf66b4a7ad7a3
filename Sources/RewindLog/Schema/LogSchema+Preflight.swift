import Foundation
import GRDB

extension LogSchema {
    /// Checks, without writing, that the file at `path` may be written as a Rewind log: a
    /// missing or empty file may (it becomes one); anything else must be a sound Rewind log
    /// of a format this code writes, passing SQLite's `quick_check`, with exactly the schema
    /// its migrations give.
    ///
    /// Writers call it before they open a file for writing, so that a damaged, foreign or
    /// newer file is refused with not a byte of it changed and no `-wal` or `-shm` beside it:
    /// opened for writing, SQLite would switch it to WAL mode or migrate it first.
    static func checkBeforeWriting(_ path: String) throws(LogError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        guard !isDirectory.boolValue else { throw LogError(.cannotWrite, path: path, "is a folder, not a log") }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size > 0 else { return }
        let header = LogFileHeader(path: path)
        if let truncation = header?.truncation { throw truncation }
        let missingWAL = header?.isMissingItsWAL ?? false
        do {
            let database = try LogReader.openReadOnly(path)
            defer { try? database.close() }
            try database.read { db in
                try validate(db, path: path, allowEmpty: true, missingWAL: missingWAL)
                let problems = try String.fetchAll(db, sql: "PRAGMA quick_check")
                guard problems == ["ok"] else {
                    // One line: SQLite's own messages span several.
                    let text = problems.prefix(3).joined(separator: "; ").split(whereSeparator: \.isNewline).joined(separator: " ")
                    throw LogError.damage(in: path, "SQLite's quick_check reports: \(text)")
                }
                if try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0 > 0 {
                    try checkExactSchema(db, path: path, version: try version(of: db))
                }
            }
        } catch {
            throw LogReader.logError(error, path: path)
        }
    }
}
