import Foundation
import RewindTestSupport

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

    /// Runs `rewind` as the synchronous `run` does, on a thread of its own, so a caller on the
    /// main actor does not hold it for the child's life. The live tests' apps answer commands on
    /// the main actor: a test elsewhere holding it 10 s through a child made the stepper report
    /// an answer lost (three CI runs; reproduced by holding the main actor 12 s beside it).
    static func run(
        _ arguments: [String], in directory: URL? = nil, input: String = "",
        environment: [String: String] = [:], program: String = "rewind", executable: URL? = nil
    ) async throws -> Result {
        try await offTheMainActor {
            try run(arguments, in: directory, input: input, environment: environment, program: program, executable: executable) as Result
        }
    }

    /// `body`'s value, computed on a thread of its own: neither the main actor nor a thread of
    /// the concurrency pool waits on it.
    static func offTheMainActor<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Swift.Result { try body() }) }.start()
        }
    }

    /// Runs `rewind` with `arguments` in `directory`, feeding `input` to its standard input.
    static func run(
        _ arguments: [String], in directory: URL? = nil, input: String = "",
        environment: [String: String] = [:], program: String = "rewind", executable: URL? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable ?? url(of: program)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Standard error is read on a thread of its own: read after standard output, more than
        // a pipe holds of it would stop the child before it closed standard output.
        let err = Locked(Data())
        let errorRead = DispatchSemaphore(value: 0)
        Thread {
            err.withLock { $0 = stderr.fileHandleForReading.readDataToEndOfFile() }
            errorRead.signal()
        }.start()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        errorRead.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err.withLock { $0 }, as: UTF8.self)
        )
    }
}
