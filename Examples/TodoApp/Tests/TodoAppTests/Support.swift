import ExampleTestSupport
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
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> BuiltExecutable.Result {
        try BuiltExecutable.run("todo-rewind", arguments, environment: environment)
    }
}
