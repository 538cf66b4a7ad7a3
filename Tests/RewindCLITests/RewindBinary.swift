import Foundation

/// Runs the built `rewind` executable, as a user would, and captures what it prints.
struct RewindBinary {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `rewind` built next to this test bundle.
    static var url: URL { url(of: "rewind") }

    /// A program built beside the tests: `rewind`, or `crashing-rewind`.
    static func url(of program: String) -> URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(program)
    }

    /// Runs `rewind` with `arguments` in `directory`, feeding `input` to its standard input.
    static func run(
        _ arguments: [String], in directory: URL? = nil, input: String = "",
        environment: [String: String] = [:], program: String = "rewind"
    ) throws -> Result {
        let process = Process()
        process.executableURL = url(of: program)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self)
        )
    }
}
