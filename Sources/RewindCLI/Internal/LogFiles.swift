import Foundation
import RewindLog

/// Checks on the files that write commands create or replace.
enum LogFiles {
    /// Removes the log at `path` (and its `-wal` and `-shm`) so the demo can write it anew;
    /// refuses when the file is something other than a Rewind log.
    static func replaceDemoLog(at path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        do {
            _ = try LogReader(path: path).sessions()
        } catch {
            throw LogError(.invalidArgument, "\(path) exists and is not a Rewind log; choose another --output", underlying: error)
        }
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            try FileManager.default.removeItem(atPath: file)
        }
    }
}
