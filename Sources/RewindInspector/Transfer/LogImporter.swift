import Foundation
import RewindLog

/// Reads an export (the JSON lines of ``LogExporter``) back into a log.
///
/// Nothing is written unless the whole export verifies: every line parses and has the fields
/// of its type, steps increase, every state matches its digest and no redacted field holds a
/// clear value. Then a second pass writes the sessions through a ``SQLiteSink``, after those
/// the log already holds, keyframes and patches chosen as a recorder chooses them. Exporting
/// the result gives back the same bytes (with session numbers renumbered after any sessions
/// the log held before).
public struct LogImporter: Sendable {
    /// The export's path.
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// Reads and checks every line without writing anything.
    public func verify() throws -> [ImportedSession] {
        try run(writingTo: nil, output: "")
    }

    /// Refuses an `output` that exists and is not a Rewind log (exit 64): an import adds
    /// sessions to a log or creates one (from a missing or an empty file, as every writer
    /// does), and overwrites nothing else.
    public func checkOutput(_ output: String) throws(LogError) {
        guard !SQLiteSink.isNewLog(output) else { return }
        guard OutputFile.isRewindLog(output) else {
            throw LogError(.invalidArgument, "\(output) exists and is not a Rewind log; choose another --output")
        }
    }

    /// Verifies the export, then adds its sessions to the log at `output`, creating it when
    /// missing; returns them with their numbers in that log.
    ///
    /// A log created here is removed again if writing fails (an empty file given as `output`
    /// is left empty).
    public func importSessions(into output: String) throws -> [ImportedSession] {
        try checkOutput(output)
        if FileManager.default.fileExists(atPath: path) && !OutputFile.isRegularFile(path) {
            throw LogError(
                .invalidArgument, path: path, "is not a regular file; import reads it twice (to verify, then to write), so save the export to a file first")
        }
        _ = try verify()
        let created = SQLiteSink.isNewLog(output)
        let wasEmpty = created && FileManager.default.fileExists(atPath: output)
        do {
            let sink = try SQLiteSink(path: output)
            let sessions: [ImportedSession]
            do {
                sessions = try run(writingTo: sink, output: output)
            } catch {
                try? sink.close()
                throw error
            }
            do {
                try sink.close()
            } catch {
                throw FileWriteError(path: output, "\(error)", underlying: error)
            }
            return sessions
        } catch {
            if created {
                for file in [output, output + "-wal", output + "-shm"] {
                    try? FileManager.default.removeItem(atPath: file)
                }
                // The empty file the user gave is left empty (with mode 0600).
                if wasEmpty { _ = FileManager.default.createFile(atPath: output, contents: nil, attributes: [.posixPermissions: 0o600]) }
            }
            throw error
        }
    }

    private func run(writingTo sink: SQLiteSink?, output: String) throws -> [ImportedSession] {
        var reader = try LineReader(path: path)
        defer { reader.close() }
        var pass = ImportPass(path: path, sink: sink, output: output)
        while let line = try reader.next() {
            try pass.consume(line, number: reader.lineNumber)
        }
        try pass.finish()
        return pass.imported
    }
}
