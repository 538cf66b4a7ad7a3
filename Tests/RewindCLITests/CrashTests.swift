import Foundation
import GRDB
import RewindLog
import Testing

/// Kills a recording process with SIGKILL and checks what it leaves behind. `tools/crash-test`
/// does the same 200 times at random moments; these are its few fixed cases.
@Suite struct CrashTests {
    /// Starts `rewind record` with a flush every `flushEvery` steps, reads its flush reports
    /// until `flushes` have arrived (none: kill it as it starts), and kills it; returns the
    /// last step reported flushed, counting reports still in the pipe after the kill.
    private func recordAndKill(log: String, seed: Int, flushes: Int, flushEvery: Int) throws -> Int {
        let process = Process()
        process.executableURL = RewindBinary.url
        process.arguments = [
            "record", "app", "--random", "--seed", "\(seed)", "--steps", "100000000",
            "--output", log, "--flush-every", "\(flushEvery)",
        ]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var text = "", lastFlushed = 0, seen = 0
        func readReports(_ data: Data) {
            text += String(decoding: data, as: UTF8.self)
            while let newline = text.firstIndex(of: "\n") {
                let line = text[..<newline]
                text = String(text[text.index(after: newline)...])
                if let step = Int(line.split(separator: " ").last ?? "") {
                    lastFlushed = step
                    seen += 1
                }
            }
        }
        while seen < flushes {
            let data = stderr.fileHandleForReading.availableData
            if data.isEmpty { break }
            readReports(data)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // A report in the pipe was written after its flush returned, so its steps must be there.
        readReports(stderr.fileHandleForReading.readDataToEndOfFile())
        #expect(process.terminationReason == .uncaughtSignal)
        return lastFlushed
    }

    @Test(arguments: [(seed: 1, flushes: 4, every: 200), (2, 5, 200), (3, 6, 1), (4, 0, 50)])
    func aKilledRecorderLeavesAnIntactLogWithEverythingFlushed(seed: Int, flushes: Int, every: Int) throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("crash.rewind")
        let flushed = try recordAndKill(log: log, seed: seed, flushes: flushes, flushEvery: every)
        #expect(flushed >= flushes * every)
        guard FileManager.default.fileExists(atPath: log) else {
            #expect(flushed == 0, "killed before it created the log")
            return
        }

        let check = try DatabaseQueue(path: log).read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        #expect(check == ["ok"])
        guard let reader = try? LogReader(path: log), let session = try reader.sessions().first else {
            #expect(flushed == 0, "killed before its first commit, with nothing promised")
            return
        }
        #expect(session.lastStep >= flushed, "everything flushed before the kill is there")
        #expect(session.eventCount == session.lastStep, "steps are contiguous")
        #expect(try reader.gaps(of: session).isEmpty)
        if session.lastStep > 0 {
            let last = try reader.events(of: session, steps: session.lastStep...session.lastStep)
            #expect(try reader.state(of: session, at: session.lastStep).digest == last.first?.digest)
        }
        #expect(session.endedAt == nil, "the session never ended")
    }

    /// Kills `rewind record` while it creates its log (as soon as the hidden file it builds the
    /// log in appears; where it finished first, just after): the path is then missing, still
    /// the empty file it was, or a sound log, never a half-made one; a writer takes it, and
    /// removes the hidden file the kill left.
    @Test(arguments: [false, true]) func aKillWhileTheLogIsCreatedLeavesNothingHalfMade(emptyFileFirst: Bool) throws {
        for round in 0..<5 {
            let folder = try TemporaryDirectory()
            let log = folder.path("birth.rewind")
            if emptyFileFirst { #expect(FileManager.default.createFile(atPath: log, contents: nil)) }
            let process = Process()
            process.executableURL = RewindBinary.url
            process.arguments = ["record", "login", "--random", "--seed", "\(round)", "--steps", "100000000", "--output", log]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Bounded: the recorder makes its log within a second or two of starting.
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline, process.isRunning {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.url.path)) ?? []
                if names.contains(where: { $0.hasPrefix(".birth.rewind.new-") }) || (try? LogReader(path: log)) != nil { break }
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()

            let size = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? nil
            if let size, size > 0 {
                do {
                    _ = try LogReader(path: log).sessions()
                } catch let error where error.kind == .incomplete && error.message.hasPrefix("not a whole Rewind log: it holds no session") {
                    // Killed after the log got its name, before its first session: readers
                    // say what they cannot tell from a copy that lost its `-wal`.
                } catch {
                    Issue.record("round \(round): not a sound log: \(error)")
                }
            }
            #expect(!FileManager.default.fileExists(atPath: log + "-journal"), "round \(round)")
            let writer = try RewindBinary.run(["record", "login", "--script", "login-happy", "--output", log])
            #expect(writer.status == 0, "round \(round): \(writer.stderr)")
            #expect(try RewindBinary.run(["check", log]).status == 0, "round \(round)")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { !$0.hasPrefix("birth.rewind") }
            #expect(left == [], "round \(round): the writer removed what the killed one left")
        }
    }
}
