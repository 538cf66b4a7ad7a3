import Foundation
import RewindCore
import RewindJSON
import RewindLog
import Testing
import TodoApp

/// The app records its own sessions through the public API, and the log holds what the
/// values held.
@MainActor
@Suite struct RecordingTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-tests-\(UUID().uuidString)")

    @Test func aRenamedItemIsRecordedWithItsNewTitleThoughEqualsComparesOnlyIDs() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("session.rewind").path
        let store = try TodoStore.make(api: TodoAPI(), logPath: path, name: "rename")
        store.send(.addItem(title: "Buy milk"))
        store.send(.addItem(title: "Call Ada"))
        store.send(.renameItem(id: 2, title: "Call Grace"))
        #expect(store.state.items[1] == TodoItem(id: 2, title: "Call Ada"), "== sees no change")
        store.recorder?.close()

        let reader = try LogReader(path: path)
        let session = try reader.session(nil)
        #expect(session.lastStep == 3)
        #expect(try reader.state(of: session, at: 3)[JSONPath("items[1].title")] == "Call Grace")
        #expect(try reader.state(of: session, at: 2)[JSONPath("items[1].title")] == "Call Ada")
    }

    @Test func theRecordersReplicaStoresTheStoresStateAtEveryStep() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("session.rewind").path
        var configuration = RecorderConfiguration()
        configuration.keyframeInterval = 16
        let errors = Errors()
        configuration.onError = { error in errors.append(error) }
        let store = try TodoStore.make(api: TodoAPI(), logPath: path, name: "long", configuration: configuration)
        var shown: [JSONValue] = []
        for step in 0..<300 {
            switch step % 5 {
            case 0, 1: store.send(.addItem(title: "Item \(step)"))
            case 2: store.send(.renameItem(id: step / 2, title: "Renamed \(step)"))
            case 3: store.send(.toggleItem(id: step / 3))
            default: store.send(step % 20 == 4 ? .clearCompleted : .deleteItem(id: step / 4))
            }
            shown.append(try JSONValueEncoder().encode(store.state))
            if step % 97 == 0 { store.recorder?.flush() }
        }
        store.recorder?.close()

        #expect(errors.all.isEmpty)
        let reader = try LogReader(path: path)
        let session = try reader.session(nil)
        #expect(session.lastStep == 300)
        for step in 1...300 {
            #expect(try reader.state(of: session, at: step) == shown[step - 1], "step \(step)")
        }
    }

    @Test func theTokenNeverReachesTheLogInClear() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("session.rewind").path
        let store = try TodoStore.make(api: TodoAPI(), logPath: path, name: "token")
        store.send(.tokenEntered("tok_secret_9731"))
        store.send(.syncTapped)
        store.recorder?.flush()
        // While the session is open, the WAL holds the steps: neither file has the token.
        for file in [path, path + "-wal"] where FileManager.default.fileExists(atPath: file) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            #expect(bytes.range(of: Data("tok_secret_9731".utf8)) == nil, "\(file)")
        }
        store.recorder?.close()
        let session = try LogReader(path: path).session(nil)
        #expect(session.redactedPaths.contains("apiToken"))
    }
}

/// What a recorder reported, from its threads.
final class Errors: @unchecked Sendable {
    // Unchecked: every access holds the lock.
    private let lock = NSLock()
    private var errors: [any Error] = []

    func append(_ error: any Error) { lock.withLock { errors.append(error) } }
    var all: [any Error] { lock.withLock { errors } }
}
