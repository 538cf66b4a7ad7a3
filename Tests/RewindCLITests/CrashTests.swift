import Foundation
import GRDB
import Testing
import RewindLog

/// Kills a recording process with SIGKILL and checks what it leaves behind.
@Suite struct CrashTests {
    /// Starts `rewind record` with a flush every 200 steps, reads its flush reports until
    /// `flushes` have arrived, and kills it; returns the last step reported flushed.
    private func recordAndKill(log: String, seed: Int, flushes: Int) throws -> Int {
        let process = Process()
        process.executableURL = RewindBinary.url
        process.arguments = [
            "record", "app", "--random", "--seed", "\(seed)", "--steps", "100000000",
            "--output", log, "--flush-every", "200",
        ]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var text = "", lastFlushed = 0, seen = 0
        while seen < flushes {
            let data = stderr.fileHandleForReading.availableData
            if data.isEmpty { break }
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
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        return lastFlushed
    }

    @Test(arguments: [1, 2, 3])
    func aKilledRecorderLeavesAnIntactLogWithEverythingFlushed(seed: Int) throws {
        let folder = try TemporaryDirectory()
        let log = folder.path("crash.rewind")
        let flushed = try recordAndKill(log: log, seed: seed, flushes: 3 + seed)
        #expect(flushed >= 600)

        let check = try DatabaseQueue(path: log).read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        #expect(check == ["ok"])
        let reader = try LogReader(path: log)
        let session = try reader.session(nil)
        #expect(session.lastStep >= flushed, "everything flushed before the kill is there")
        #expect(session.eventCount == session.lastStep, "steps are contiguous")
        #expect(try reader.gaps(of: session).isEmpty)
        let last = try reader.events(of: session, steps: session.lastStep...session.lastStep)
        #expect(try reader.state(of: session, at: session.lastStep).digest == last.first?.digest)
        #expect(session.endedAt == nil, "the session never ended")
    }
}
