import Foundation
import Testing

/// An app's command line, built as an app builds Rewind (without the `Servers` trait, so with
/// no server package), says in one line that it has no team store, no collector and no live
/// inspector.
@Suite struct WithoutTeamStoreTests {
    let store = "postgres://rewind@127.0.0.1:54329/x"

    @Test func everyVerbOfAStoreSaysTheBuildHasNoStore() throws {
        let log = Package.recording("todo-basics")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-tests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for arguments in [
            ["push", log, "--to", store], ["sessions", store],
            ["pull", store, "--session", "todo-basics", "-o", folder.appendingPathComponent("pulled.rewind").path],
            ["show", store, "5"], ["replay", store, "--shard", "1/2"],
        ] {
            let result = try TodoRewind.run(arguments)
            #expect(result.status == 69, "\(arguments)")
            #expect(
                result.stderr
                    == "todo-rewind: \(store): this rewind was built without the team store: build it with the Servers trait (swift run --traits Servers rewind …)\n"
            )
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path), "nothing was written")
    }

    @Test func serveSaysTheBuildHasNoCollector() throws {
        let result = try TodoRewind.run(["serve", "token", "list", "--store", "/nonexistent/sessions.rewind"])
        #expect(result.status != 0)
        #expect(
            result.stderr.hasSuffix(
                "this rewind was built without the collector: build it with the Servers trait (swift run --traits Servers rewind serve …)\n"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    /// `live` says so too, in one line, and leaves no folder or log behind it.
    @Test func liveSaysTheBuildHasNoInspector() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-tests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let result = try TodoRewind.run(["live", "--listen", "127.0.0.1:0", "--log", folder.appendingPathComponent("live.rewind").path])
        #expect(result.status != 0)
        #expect(
            result.stderr.hasSuffix(
                "this rewind was built without the live inspector: build it with the Servers trait (swift run --traits Servers rewind live)\n"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "no log was made")
    }
}
