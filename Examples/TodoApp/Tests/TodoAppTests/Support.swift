import Foundation

/// Where this package's files are, wherever `swift test` runs from.
enum Package {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func recording(_ name: String) -> String {
        root.appendingPathComponent("recordings/\(name).rewind").path
    }

    /// A copy of a committed recording in a fresh folder, for tests that write to it.
    static func copy(ofRecording name: String) throws -> (path: String, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("\(name).rewind").path
        try FileManager.default.copyItem(atPath: recording(name), toPath: path)
        return (path, folder)
    }
}

/// The built `todo-rewind`, run as a user would.
enum TodoRewind {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("todo-rewind")
        process.arguments = arguments
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }
}
