import Foundation
import RewindCore
import RewindLog
import RewindReplay
import Testing
import TodoApp

/// Schema version 1 called `filterChanged` `setFilter`: its recordings replay through the
/// migration, and `--update` moves them to version 2, names included.
@Suite struct MigrationTests {
    @Test func anOldRecordingReplaysThroughTheMigration() throws {
        let replays = try Replayer(registry: TodoFlows.registry).replay(path: Package.recording("todo-basics-v1"))
        #expect(replays.map(\.outcome) == [.matched])
        #expect(replays.map(\.session.schemaVersion) == [1])
    }

    @Test func withoutTheMigrationTheRenamedCaseIsRefusedByName() throws {
        let flows = ReplayRegistry([ReplayFlow(TodoFlows.name, schemaVersion: 2) { TodoFeature(api: TodoAPI()) }])
        let replay = try #require(try Replayer(registry: flows).replay(path: Package.recording("todo-basics-v1")).first)
        #expect(replay.outcome == .refused(step: 7, reason: "setFilter (todo): TodoAction has no case 'setFilter' (removed or renamed?)"))
    }

    @Test func updateThenLogFindsTheStepsUnderTheirNewName() throws {
        let (path, folder) = try Package.copy(ofRecording: "todo-basics-v1")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try TodoRewind.run(["log", path, "--action", "filterChanged"]).stdout == "")

        let update = try TodoRewind.run(["replay", path, "--update"])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stdout == "updated \(path) #1 (todo-basics-v1): 10 steps replayed, every state matches, moved to the flow's current schema\n")

        let found = try TodoRewind.run(["log", path, "--action", "filterChanged"])
        #expect(found.stdout.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" } == ["7", "8"])
        #expect(found.stdout.contains(#"filterChanged("active")"#))
        #expect(try LogReader(path: path).session(nil).schemaVersion == 2)
        #expect(try TodoRewind.run(["log", path, "--action", "setFilter"]).stdout == "")
    }
}
