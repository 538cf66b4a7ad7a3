import Foundation
import RewindWebDriver
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ``SpawnedProcess`` hands a child nothing of the test process but standard input, output and
/// error: a long-lived child (a `--follow`, a tmux server) that kept another test's pipe open
/// would keep that test reading it until the child ended.
@Suite struct SpawnedProcessTests {
    @Test func descriptorsAreClosedInTheChildNotListedBeforehand() {
        // A listing would miss a pipe that another thread opens between it and the spawn.
        #expect(SpawnedProcess.closesEveryDescriptor)
    }

    @Test func aChildInheritsNoDescriptorAboveStandardError() throws {
        let folder = try TemporaryDirectory()
        let listing = folder.path("fds.txt")
        // Opened without close-on-exec, as another test's pipe may be at any moment.
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }

        // The shell lists its own descriptors; `exec` keeps its process id for `$$`.
        let pid = try SpawnedProcess.spawn("/bin/sh", ["-c", "exec ls /proc/$$/fd"], outputPath: listing)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        #expect(status == 0)
        let descriptors = try String(contentsOfFile: listing, encoding: .utf8).split(separator: "\n").compactMap { Int32($0) }
        // ls itself opens one to read the folder.
        #expect(descriptors.filter { $0 > 2 }.count <= 1, "\(descriptors)")
        #expect(!descriptors.contains(ends[0]) && !descriptors.contains(ends[1]), "\(descriptors) holds the pipe \(ends)")
    }
}
