import Foundation
import GRDB
import RewindCore
import Testing

@testable import RewindLog

/// A secret planted deep in a state and its actions never reaches a byte on disk: the log,
/// its `-wal` and `-shm` while recording, an export, a log imported from it, or freed pages.
@Suite struct SecretsOnDiskTests {
    private static let secret = "zq7-CLEAR-hunter2-4471"
    private static let canary = "canary-plain-9Q3X"

    /// How many times `text` appears in the file at `path`, byte for byte; 0 when it is absent.
    private func occurrences(of text: String, in path: String) -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        return data.ranges(of: Data(text.utf8)).count
    }

    /// How many times `text` appears in the log at `path` once its blocks are inflated: a
    /// search of the file alone would not see through their compression.
    private func occurrences(of text: String, inBlocksOf path: String) throws -> Int {
        Data(try BlockSurgery(path: path).inflatedBlocks()).ranges(of: Data(text.utf8)).count
    }

    private func mode(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1
    }

    @Test func aDeepSecretReachesNoFileAndFilesAreTheOwnersOnly() throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("vault.rewind")
        let sink = try SQLiteSink(path: log)
        let recorder = Recorder<Vault, Vault.Action>(sink: sink, session: SessionDescriptor(name: "vault", flow: "vault"))
        _ = Vault.play(into: recorder, secret: Self.secret)
        recorder.flush()

        // While recording: the WAL is live, and no one else may read it either.
        for file in [log, log + "-wal", log + "-shm"] {
            #expect(FileManager.default.fileExists(atPath: file), "\(file)")
            #expect(occurrences(of: Self.secret, in: file) == 0, "\(file)")
        }
        #expect(try mode(log) == 0o600)
        #expect(try mode(log + "-wal") & 0o077 == 0, "the -wal is not readable by group or others")
        recorder.close()
        try sink.close()
        #expect(occurrences(of: Self.secret, in: log) == 0)
        #expect(try occurrences(of: Self.secret, inBlocksOf: log) == 0, "nor once inflated")
        #expect(try occurrences(of: "$redacted", inBlocksOf: log) > 0, "the placeholders are there instead")
        let redacted = try LogReader(path: log).session(nil).redactedPaths
        #expect(redacted.contains("accounts[*].pin"), "\(redacted)")
        #expect(redacted.contains { $0.hasPrefix("action.unlock") && $0.hasSuffix("token") }, "\(redacted)")

        let export = folder.path("vault.jsonl")
        let exported = try RewindBinary.run(["export", log, "--output", export])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(occurrences(of: Self.secret, in: export) == 0)
        #expect(occurrences(of: "$redacted", in: export) > 0, "the placeholders are there instead")
        #expect(try mode(export) == 0o600)

        let copy = folder.path("imported.rewind")
        let imported = try RewindBinary.run(["import", export, "--output", copy])
        #expect(imported.status == 0, "\(imported.stderr)")
        for file in [copy, copy + "-wal", copy + "-shm"] {
            #expect(occurrences(of: Self.secret, in: file) == 0, "\(file)")
        }
        #expect(try occurrences(of: Self.secret, inBlocksOf: copy) == 0)
        #expect(try mode(copy) == 0o600)
    }

    /// Records a session whose every state holds the canary, a plain value that does reach
    /// the log, next to a session that stays; returns the log's path.
    private func logWithACanarySession(in folder: TemporaryDirectory) throws -> String {
        let log = folder.path("freed.rewind")
        let sink = try SQLiteSink(path: log)
        for (name, canary) in [("keeps", ""), ("goes", Self.canary)] {
            let recorder = Recorder<Vault, Vault.Action>(sink: sink, session: SessionDescriptor(name: name, flow: "vault"))
            var vault = Vault()
            recorder.start(initialState: vault)
            for step in 1...300 {
                vault.canary = "\(canary) \(step)"
                recorder.record(.note(vault.canary), state: vault, step: step)
            }
            recorder.close()
        }
        try sink.close()
        #expect(try occurrences(of: Self.canary, inBlocksOf: log) >= 300, "the canary is in the log before the removal")
        return log
    }

    /// Stretches of the removed session's stored blocks, as compressed on disk: what freed
    /// pages would still hold.
    private func fingerprints(of session: Int, in log: String) throws -> [Data] {
        try BlockSurgery(path: log).storedBlocks(session: session).flatMap { block in
            stride(from: 16, to: block.count - 32, by: 64).map { Data(block[$0..<$0 + 24]) }
        }
    }

    private func occurrences(of fingerprints: [Data], in path: String) -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        return fingerprints.reduce(0) { $0 + data.ranges(of: $1).count }
    }

    @Test func removedRowsLeaveNothingInFreedPages() throws {
        let folder = try TemporaryDirectory()
        let log = try logWithACanarySession(in: folder)
        let removed = try fingerprints(of: 2, in: log)
        #expect(removed.count >= 10 && occurrences(of: removed, in: log) >= removed.count)
        let sink = try SQLiteSink(path: log)
        try sink.removeSession(2)
        try sink.close()
        #expect(occurrences(of: removed, in: log) == 0, "secure_delete zeroed the freed pages")
        #expect(try LogReader(path: log).sessions().map(\.name) == ["keeps"])

        // The control: without secure_delete the same removal leaves the blocks readable.
        let control = try TemporaryDirectory()
        let unsafe = try logWithACanarySession(in: control)
        let kept = try fingerprints(of: 2, in: unsafe)
        let database = try DatabaseQueue(path: unsafe)
        try database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA secure_delete = OFF")
            try db.execute(sql: "DELETE FROM event_block WHERE session_id = 2; DELETE FROM session_meta WHERE session_id = 2; DELETE FROM session WHERE id = 2")
        }
        try database.close()
        #expect(occurrences(of: kept, in: unsafe) > 0, "the test would see what secure_delete hides")
    }
}
