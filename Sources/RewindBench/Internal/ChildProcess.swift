import Foundation

/// Programs the benchmarks run to their end: `rewind` itself, `psql`, valgrind.
enum ChildProcess {
    /// Runs `program` with `arguments`, standard output discarded, and returns what it wrote
    /// to standard error; a failure is thrown with it.
    @discardableResult
    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let name = URL(fileURLWithPath: program).lastPathComponent
            throw BenchmarkError("\(name) \(arguments.first ?? "") exited \(process.terminationStatus): \(output)")
        }
        return output
    }

    /// Runs `program` with `arguments` and returns what it printed on standard output; a
    /// failure is thrown with what it wrote to standard error.
    static func output(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let written = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("\(URL(fileURLWithPath: program).lastPathComponent) \(arguments.first ?? "") exited \(process.terminationStatus): \(written)")
        }
        return printed
    }

    /// Starts `process`, a server that names its address on its first line, with `output` as
    /// its standard output, and returns that line (all it printed, if it ended first).
    static func firstLine(of process: Process, output: Pipe) throws -> String {
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        return String(decoding: line, as: UTF8.self)
    }
}
