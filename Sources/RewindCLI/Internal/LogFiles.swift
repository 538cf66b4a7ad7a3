import Foundation
import RewindLog
import RewindRendering

/// Checks on the files that write commands create or replace.
enum LogFiles {
    /// Removes the log at `path` (and its `-wal` and `-shm`) so the demo can write it anew;
    /// refuses a file that is not a Rewind log, and one a writer would refuse (damaged, newer).
    /// An empty file is taken as it is: the sink makes it the log.
    static func replaceDemoLog(at path: String) throws {
        // A missing or empty file (one `mktemp` made) becomes the log, as for every writer.
        guard !SQLiteSink.isNewLog(path) else { return }
        if let refusal = refusal(toReplace: path) { throw refusal }
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            try FileManager.default.removeItem(atPath: file)
        }
    }

    /// Whether a report may be written at `path`: nothing is there, or a report of ours is
    /// (its `generator` meta tag says so).
    static func isReplaceableReport(at path: String) -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return true }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 1024)) ?? Data()
        return String(decoding: head, as: UTF8.self).contains(#"<meta name="generator" content="rewind report">"#)
    }

    /// Checks that a session may be added to the log at `output` from the log at `input`:
    /// not the same file (a command that reads a log never writes it), and, when it exists, a
    /// log a writer accepts.
    static func checkNewSession(in output: String, readingFrom input: String, what: String) throws {
        guard FileManager.default.fileExists(atPath: output) else { return }
        guard URL(fileURLWithPath: output).resolvingSymlinksInPath().path != URL(fileURLWithPath: input).resolvingSymlinksInPath().path else {
            throw LogError(.invalidArgument, path: output, "the output is the log being read: write \(what) to another file")
        }
        try SQLiteSink.checkBeforeWriting(output)
    }

    /// Says on standard error when a session of the log at `path` is damaged, after a writer
    /// appended to it: appending reads no other session, so their damage does not stop it
    /// (only a file SQLite or the schema finds unsound does), but the user should know.
    static func warnOfDamage(in path: String) throws {
        let sessions = try LogReader(path: path).sessions(allowingDamage: true)
        guard let damaged = sessions.first(where: { $0.damage != nil || $0.rowCheck == .mismatch }) else { return }
        let line = "rewind: warning: session #\(damaged.number) of \(path) is damaged (the new session is sound); run `rewind check \(path)`"
        FileHandle.standardError.write(Data((TerminalText.escaped(line) + "\n").utf8))
    }

    /// Why the file at `path` may not be replaced, checked as a writer checks; nil when it may.
    private static func refusal(toReplace path: String) -> LogError? {
        do {
            try SQLiteSink.checkBeforeWriting(path)
            _ = try LogReader(path: path).sessions()
            return nil
        } catch {
            guard error.kind == .notALog || error.kind == .incomplete else { return error }
            return LogError(.invalidArgument, "\(path) exists and is not a Rewind log; choose another --output")
        }
    }
}
