import Foundation
import Testing

/// `todo-rewind write-test`: the app's own command line writes a test of its recording, and
/// the one committed beside (`TodoSyncRetryWrittenTests.swift`, which runs with the others)
/// is what it writes today.
@Suite struct WriteTestTests {
    @Test func theCommittedWrittenTestIsWhatTheCommandWritesNow() throws {
        let result = try TodoRewind.run(["write-test", Package.recording("todo-sync-retry"), "--output", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        let committed = try String(
            contentsOf: Package.root.appendingPathComponent("Tests/TodoAppTests/TodoSyncRetryWrittenTests.swift"), encoding: .utf8)
        #expect(
            result.stdout == committed,
            "write it again: todo-rewind write-test recordings/todo-sync-retry.rewind --output Tests/TodoAppTests/TodoSyncRetryWrittenTests.swift")
    }

    @Test func aWindowOutsideTheSessionIsRefusedInOneLine() throws {
        let result = try TodoRewind.run(["write-test", Package.recording("todo-sync-retry"), "-s", "1", "--from", "9", "--output", "-"])
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr == "todo-rewind: --from 9 --to 7 is outside session #1 (todo-sync-retry), whose steps are 0–7\n")
    }
}
