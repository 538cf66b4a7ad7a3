import ExampleTestSupport
import Foundation

/// A folder of its own for each test, removed when the test ends.
final class TemporaryFolder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("notes-tests-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }
}

/// The built `notes-rewind`, run as a user would.
enum NotesRewind {
    static func run(_ arguments: [String]) throws -> BuiltExecutable.Result {
        try BuiltExecutable.run("notes-rewind", arguments)
    }

    /// Records the scripted session `script` into a new log in `folder`, as a user would.
    static func record(_ script: String, in folder: TemporaryFolder) throws -> String {
        let path = folder.path("\(script).rewind")
        let result = try run(["record", "notes", "--script", script, "--output", path])
        guard result.status == 0 else { throw RecordingFailed(stderr: result.stderr) }
        return path
    }

    struct RecordingFailed: Error, CustomStringConvertible {
        var stderr: String
        var description: String { "notes-rewind record failed: \(stderr)" }
    }
}
