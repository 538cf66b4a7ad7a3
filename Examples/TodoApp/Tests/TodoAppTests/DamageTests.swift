import Foundation
import RewindCore
import RewindLog
import Testing
import TodoApp

/// A byte of the app's log changed on disk is damage, named by session and step, through the
/// public API and the app's own inspector alike: never a value shown as if it were recorded.
@MainActor
@Suite struct DamageTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-tests-\(UUID().uuidString)")

    /// A closed log of three steps, one block, with one byte of that block changed in the file.
    ///
    /// The block is found as docs/log-format.md describes it: a zlib stream (its header 78 01,
    /// zlib's fastest level), or its JSON as it is when compressing would not shorten it.
    func damagedLog() throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("damaged.rewind").path
        let store = try TodoStore.make(api: TodoAPI(), logPath: path, name: "damaged")
        store.send(.addItem(title: "Buy milk"))
        store.send(.addItem(title: "Call Ada"))
        store.send(.toggleItem(id: 1))
        store.recorder?.close()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let block = try #require(bytes.range(of: Data([0x78, 0x01])) ?? bytes.range(of: Data("Buy milk".utf8)))
        bytes[block.lowerBound + 20] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theReaderRefusesTheChangedBlockNamingItsStep() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try damagedLog()
        let reader = try LogReader(path: path)
        let session = try reader.session(nil)
        #expect(throws: LogError.self) { try reader.state(of: session, at: 1) }
        do {
            _ = try reader.state(of: session, at: 3)
            Issue.record("a state built on a changed row was returned")
        } catch LogError.damaged {
            // The kind matches; the error carries where.
        } catch {
            Issue.record("not damage: \(error)")
        }
        #expect(throws: Never.self) { try reader.state(of: session, at: 0) }
    }

    @Test func theAppsInspectorSaysSoInOneLine() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try damagedLog()
        let show = try TodoRewind.run(["show", path, "2"])
        #expect(show.status == 65)
        #expect(show.stdout == "")
        #expect(
            show.stderr
                == "todo-rewind: \(path): the log is damaged: step 2 of session #1 (damaged): its stored block (steps 1 through 3) does not match its checksum\n"
        )

        let check = try TodoRewind.run(["check", path])
        #expect(check.status == 1)
        #expect(check.stdout.contains("      - steps 1 through 3: the stored block does not match its checksum\n"), "\(check.stdout)")
    }
}
