import ExampleTestSupport
import Foundation
import Testing

/// The command lines the READMEs give for this package run as printed, from the folder they
/// run in: the blocks of this package's README, and the blocks of Rewind's that
/// `cd Examples/TodoApp` first. Each block runs in order in a fresh folder holding a copy of
/// this package's recordings, `swift run NAME` standing for the built NAME.
@Suite struct ReadmeCommandTests {
    /// The lines that run this package's command lines, block by block.
    static func commandBlocks(of readme: String, after cd: String?) -> [[String]] {
        var blocks: [[String]] = []
        var block: [String] = []
        for line in readme.components(separatedBy: "\n") + [""] {
            if line.hasPrefix("    ") {
                block.append(String(line.dropFirst(4)))
                continue
            }
            let commands = block.filter { $0.hasPrefix("swift run todo-rewind ") || $0.hasPrefix("swift run notes-rewind ") }
            if cd.map({ block.first == $0 }) ?? true, !commands.isEmpty {
                blocks.append(commands.map { $0.components(separatedBy: "  #").first!.trimmingCharacters(in: .whitespaces) })
            }
            block = []
        }
        return blocks
    }

    static func readme(_ path: String) -> String {
        (try? String(contentsOf: Package.root.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    static var blocks: [[String]] {
        commandBlocks(of: readme("README.md"), after: nil) + commandBlocks(of: readme("../../README.md"), after: "cd Examples/TodoApp")
    }

    @Test func bothReadmesHaveBlocksForThisPackage() {
        #expect(Self.commandBlocks(of: Self.readme("../../README.md"), after: "cd Examples/TodoApp").count == 1)
        #expect(Self.commandBlocks(of: Self.readme("README.md"), after: nil).count >= 2)
    }

    @Test(arguments: blocks)
    func runsAsPrinted(block: [String]) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-readme-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Package.root.appendingPathComponent("recordings"), to: folder.appendingPathComponent("recordings"))
        let bin = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        for line in block {
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = ["-c", #"swift() { shift; name=$1; shift; "$BIN/$name" "$@"; }; "# + line + " > /dev/null"]
            shell.environment = ProcessInfo.processInfo.environment.merging(["BIN": bin]) { $1 }
            shell.currentDirectoryURL = folder
            let stderr = Pipe()
            shell.standardError = stderr
            shell.standardInput = FileHandle.nullDevice
            try shell.run()
            let err = stderr.fileHandleForReading.readDataToEndOfFile()
            shell.waitUntilExit()
            #expect(shell.terminationStatus == 0, "\(line): \(String(decoding: err, as: UTF8.self))")
        }
    }
}
