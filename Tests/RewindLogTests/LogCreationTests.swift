import Foundation
import GRDB
import RewindCore
import Testing

@testable import RewindLog

/// A new log appears whole or not at all, from a missing path or an empty file alike.
@Suite struct LogCreationTests {
    private func mode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    private func entries(_ folder: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    }

    /// Records one session of three ticks into `path`.
    private static func recordTicks(into path: String, name: String = "ticks") throws {
        let recorder = Recorder<Int, Tick>(sink: try SQLiteSink(path: path), session: .init(name: name, flow: "test"))
        recorder.start(initialState: 0)
        for step in 1...3 { recorder.record(.tick, state: step, step: step) }
        recorder.close()
    }

    @Test func aMissingPathBecomesALogWithModeOwnerOnlyAndNothingBesideIt() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("new.rewind")
        try SQLiteSink(path: path).close()
        #expect(try mode(path) == 0o600)
        #expect(try entries(folder) == ["new.rewind"])
        #expect(try LogReader(path: path).sessions().isEmpty)
    }

    /// `mktemp` and `touch` make empty files; a writer takes one as it takes a missing path,
    /// and gives it mode 0600 whatever mode it had.
    @Test func anEmptyFileBecomesALogWithModeOwnerOnly() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("empty.rewind")
        #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644]))
        try Self.recordTicks(into: path)
        #expect(try mode(path) == 0o600)
        #expect(try entries(folder) == ["empty.rewind"])
        let session = try LogReader(path: path).session(nil)
        #expect(session.lastStep == 3 && session.eventCount == 3)
    }

    /// What a kill before the log got its name leaves: the path as it was and a hidden, half-made
    /// file of a process that is gone. The next writer removes it and makes the log; a hidden file
    /// of a process still running (this one) is another writer's, left alone.
    @Test(arguments: [false, true]) func theNextWriterRemovesWhatAnAbandonedCreationLeft(emptyFileFirst: Bool) throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("log.rewind")
        if emptyFileFirst { #expect(FileManager.default.createFile(atPath: path, contents: nil)) }
        let gone = try exitedProcessID()
        let abandoned = folder.path(".log.rewind.new-\(gone)-77")
        // What the kill left: GRDB's table of migrations and nothing else, mid-transaction.
        try DatabaseQueue(path: abandoned).write { db in try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT)") }
        try Data("hot".utf8).write(to: URL(fileURLWithPath: abandoned + "-journal"))
        let running = folder.path(".log.rewind.new-\(getpid())-78")
        #expect(FileManager.default.createFile(atPath: running, contents: nil))

        try Self.recordTicks(into: path)
        #expect(try entries(folder) == [".log.rewind.new-\(getpid())-78", "log.rewind"])
        #expect(try LogReader(path: path).session(nil).eventCount == 3)
    }

    /// Two writers that take the same path at once, missing or empty, both end in one log
    /// holding both sessions: neither replaces the log the other made, and no half-made file
    /// is left. SQLite folds the `-wal` in and removes it when the last connection closes;
    /// two that close at the same moment can each see the other, and leave it (1 round in 40
    /// on CI), with the steps it holds read as any `-wal` is.
    @Test(arguments: [false, true]) func twoWritersCreatingOneLogAtOnceKeepBothSessions(emptyFileFirst: Bool) throws {
        for round in 0..<20 {
            let folder = try TemporaryDirectory()
            let path = folder.path("shared.rewind")
            if emptyFileFirst { #expect(FileManager.default.createFile(atPath: path, contents: nil)) }
            let failures = Locked<[String]>([])
            let finished = DispatchSemaphore(value: 0)
            // Threads of their own, not tasks: each blocks on SQLite and the file system.
            for writer in 0..<2 {
                Thread {
                    defer { finished.signal() }
                    do {
                        try Self.recordTicks(into: path, name: "writer \(writer)")
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }.start()
            }
            finished.wait()
            finished.wait()
            #expect(failures.withLock { $0 } == [], "round \(round)")
            let names = try LogReader(path: path).sessions().compactMap(\.name).sorted()
            #expect(names == ["writer 0", "writer 1"], "round \(round)")
            let left = try entries(folder).filter { $0 != "shared.rewind-wal" && $0 != "shared.rewind-shm" }
            #expect(left == ["shared.rewind"], "round \(round)")
        }
    }

    /// A writer that ends while another connection holds the log leaves its steps in the
    /// `-wal`, where readers find them; the last connection to close folds them into the file.
    @Test func aWriterEndingWhileAnotherHoldsTheLogLeavesItsStepsToTheLastToClose() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("held.rewind")
        let recorder = Recorder<Int, Tick>(sink: try SQLiteSink(path: path), session: .init(name: "ticks", flow: "test"))
        recorder.start(initialState: 0)
        // Opened while the log is in WAL mode, so it holds the `-shm` as a second writer would.
        var other: DatabaseQueue? = try DatabaseQueue(path: path)
        try other?.read { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
        for step in 1...3 { recorder.record(.tick, state: step, step: step) }
        recorder.close()
        #expect(FileManager.default.fileExists(atPath: path + "-wal"), "the other connection kept the -wal")
        #expect(try LogReader(path: path).session(nil).eventCount == 3)

        other = nil
        #expect(try entries(folder) == ["held.rewind"])
        let copies = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: path, toPath: copies.path("copy.rewind"))
        let session = try LogReader(path: copies.path("copy.rewind")).session(nil)
        #expect(session.lastStep == 3 && session.eventCount == 3)
    }

    @Test func aFolderThatDoesNotExistIsOneLine() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("missing/log.rewind")
        #expect(throws: LogError(.cannotWrite, path: path, "cannot create the log (no such folder)")) { try SQLiteSink(path: path) }
    }

    /// The number of a process that has exited and been reaped.
    private func exitedProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exit 0"]
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }
}
