import Foundation
import Testing

/// A log made by `rewind demo --output` in a fresh folder, and its bytes, so that a test can
/// check a read command left the file as it was.
struct DemoLogFile {
    let folder: TemporaryDirectory
    let path: String
    let bytes: Data

    init() throws {
        folder = try TemporaryDirectory()
        path = folder.path("demo.rewind")
        let result = try RewindBinary.run(["demo", "--output", path])
        guard result.status == 0 else { throw DemoFailed(stderr: result.stderr) }
        bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Runs `rewind` with the arguments, then checks the log's bytes did not change.
    func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> RewindBinary.Result {
        let result = try RewindBinary.run(arguments)
        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(after == bytes, "the log changed under a read command", sourceLocation: sourceLocation)
        return result
    }

    /// The lines of a JSON-lines output, each parsed, or nil for one that is not JSON.
    static func jsonLines(_ output: String) -> [[String: Any]?] {
        output.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    struct DemoFailed: Error {
        var stderr: String
    }
}
