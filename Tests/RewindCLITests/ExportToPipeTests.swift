import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An output that is a pipe or a device (`-o /dev/stdout`, a FIFO) is written into, never
/// replaced by a file: a rename over `/dev/null` replaced it, run as root, for every program
/// after.
@Suite struct ExportToPipeTests {
    @Test func anExportIntoAPipeIsWrittenIntoItAndLeavesThePipe() throws {
        let demo = try DemoLogFile()
        let fifo = demo.folder.path("out.fifo")
        let received = demo.folder.path("received.jsonl")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(FileManager.default.createFile(atPath: received, contents: nil))
        // The pipe's reader, which `export` waits for as a shell's would be.
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        reader.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: received))
        try reader.run()
        // Bounded: an export that never opens the pipe to write (it opened it to read, once,
        // beside the reader, and both waited for a writer) is ended, and so is the reader.
        let result = try RewindBinary.run(
            ["120", RewindBinary.url.path, "export", demo.path, "--output", fifo], executable: URL(fileURLWithPath: "/usr/bin/timeout"))
        if result.status != 0 { reader.terminate() }
        reader.waitUntilExit()
        #expect(result.status == 0, "\(result.stderr)")
        var info = stat()
        #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "still a pipe")
        let direct = try RewindBinary.run(["export", demo.path])
        #expect(try String(contentsOfFile: received, encoding: .utf8) == direct.stdout && !direct.stdout.isEmpty)
    }

    @Test func anExportIntoAFolderIsRefusedInOneLine() throws {
        let demo = try DemoLogFile()
        let result = try demo.run(["export", demo.path, "--output", demo.folder.url.path])
        #expect(result.status == 74)
        #expect(result.stderr == "rewind: \(demo.folder.url.path): cannot write: is a folder, not a file\n", "\(result.stderr)")
    }
}
