import Foundation
import Testing

/// The CI tools through the app's own command line: `minimize`, `replay --skip`, `--junit`
/// and `--shard` run the app's reducers.
@Suite struct CIToolsTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-tests-\(UUID().uuidString)")

    @Test func minimizeKeepsTheStepsThatLeaveEveryItemDone() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let small = folder.appendingPathComponent("small.rewind").path
        let result = try TodoRewind.run([
            "minimize", Package.recording("todo-basics"), "--until", "all(items[*].isDone) and items.count > 1", "--output", small,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("wrote session #1 (todo-basics-minimized) to \(small): step 6 reaches the state\n"))
        // The rename, the filter changes and the clearing go; item 2 stays, as the ids of the
        // items toggled after it depend on it, and so does its deletion.
        let actions = try TodoRewind.run(["log", small]).stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true)[3] }
        #expect(actions == ["addItem(title:", "addItem(title:", "addItem(title:", "toggleItem(id:", "toggleItem(id:", "deleteItem(id:"])
    }

    @Test func withoutTheTokenTheSyncTapsWouldCallNoService() throws {
        let result = try TodoRewind.run(["replay", Package.recording("todo-sync-retry"), "--skip", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == #"""
                what-if #1 (todo-sync-retry): without step 3, 6 of 7 steps replayed
                  note: it replays effect results whose cause no longer starts an effect: an outcome the app may not reach
                recorded step 7 → without them:
                ~ apiToken: <redacted 13> → <redacted 0>
                steps that now ask for other work:
                  step 4 (todo  syncTapped) no longer starts "todo.sync"
                  step 6 (todo  syncTapped) no longer starts "todo.sync"

                """#)
    }

    @Test func withoutTheDeleteTheSecondItemWouldStillBeThere() throws {
        let result = try TodoRewind.run(["replay", Package.recording("todo-basics"), "--skip", "9"])
        #expect(
            result.stdout == """
                what-if #1 (todo-basics): without step 9, 9 of 10 steps replayed
                recorded step 10 → without them:
                + items[id=2]: {"id":2,"isDone":false,"title":"Water the plants"}

                """)
    }

    @Test func shardsCoverEveryRecordingOnceAndJUnitNamesEach() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let recordings = ["todo-basics", "todo-sync-retry", "todo-basics-v1"].map(Package.recording)
        var cases: [String] = []
        for shard in 1...3 {
            let xml = folder.appendingPathComponent("shard-\(shard).xml").path
            let result = try TodoRewind.run(["replay"] + recordings + ["--shard", "\(shard)/3", "--junit", xml])
            #expect(result.status == 0, "\(result.stderr)")
            let text = try String(contentsOfFile: xml, encoding: .utf8)
            cases += text.components(separatedBy: "<testcase name=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        }
        #expect(cases.sorted() == ["#1 (todo-basics)", "#1 (todo-basics-v1)", "#1 (todo-sync-retry)"])
    }
}
