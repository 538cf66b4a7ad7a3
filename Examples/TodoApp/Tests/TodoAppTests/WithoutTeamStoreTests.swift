import Foundation
import Testing

/// An app's command line, built as an app builds Rewind (without the `TeamStore` trait, so with
/// no server package), says in one line that it has no team store and no collector.
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
                    == "todo-rewind: \(store): this rewind was built without the team store: build it with the TeamStore trait (swift run --traits TeamStore rewind …)\n"
            )
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path), "nothing was written")
    }

    @Test func serveSaysTheBuildHasNoCollector() throws {
        let result = try TodoRewind.run(["serve", "token", "list", "--store", "/nonexistent/sessions.rewind"])
        #expect(result.status != 0)
        #expect(
            result.stderr.hasSuffix(
                "this rewind was built without the collector: build it with the TeamStore trait (swift run --traits TeamStore rewind serve …)\n"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
