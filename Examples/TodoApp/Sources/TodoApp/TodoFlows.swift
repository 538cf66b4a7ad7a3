import Foundation
import RewindCore
import RewindJSON
import RewindReplay

/// The todo app as Rewind sees it: its flow for replay, with the migration of older
/// recordings, and the scripted sessions its command line records.
public enum TodoFlows {
    /// The flow's name in the log.
    public static let name = "todo"

    /// Version 2 renamed the action `setFilter` to `filterChanged`.
    public static let schemaVersion = 2

    /// Reads recordings of schema version 1: `{"setFilter": …}` becomes `{"filterChanged": …}`.
    public static let renameSetFilter = SchemaMigration(
        from: 1,
        action: { action in
            if case let .object(object) = action, let payload = object["setFilter"] {
                action = ["filterChanged": payload]
            }
        })

    /// The flows replay runs: effects never run there, so the service is never called; nor in
    /// a test `todo-rewind write-test` writes, whose reducer `testReducer` builds.
    public static var registry: ReplayRegistry {
        ReplayRegistry([
            ReplayFlow(name, schemaVersion: schemaVersion, migrations: [renameSetFilter], testReducer: "TodoFeature(api: TodoAPI())") {
                TodoFeature(api: TodoAPI())
            }
        ])
    }

    /// Every scripted session, for `todo-rewind record --script NAME` and `todo-rewind demo`.
    public static var scripts: [SessionScript] {
        [
            script("todo-basics", summary: "adds three items, renames one, completes two, filters, clears") { store in
                store.send(.addItem(title: "Buy milk"))
                store.send(.addItem(title: "Water the plants"))
                store.send(.addItem(title: "Call Ada"))
                store.send(.renameItem(id: 1, title: "Buy oat milk"))
                store.send(.toggleItem(id: 1))
                store.send(.toggleItem(id: 3))
                store.send(.filterChanged(.active))
                store.send(.filterChanged(.all))
                store.send(.deleteItem(id: 2))
                store.send(.clearCompleted)
            },
            script("todo-sync-retry", summary: "syncs without a token, enters one, the first sync fails, the retry succeeds", failingCalls: [1]) { store in
                store.send(.addItem(title: "Plan the trip"))
                store.send(.syncTapped)
                store.send(.tokenEntered("tok_live_4242"))
                store.send(.syncTapped)
                await store.settle()
                store.send(.syncTapped)
            },
        ]
    }

    /// A script of the todo flow whose steps are a second apart from a fixed start, so that
    /// every recording of it is the same.
    static func script(
        _ name: String, summary: String, failingCalls: Set<Int> = [],
        _ play: @escaping @MainActor @Sendable (Store<TodoState, TodoAction>) async -> Void
    ) -> SessionScript {
        let clock = StepTimes(start: Date(timeIntervalSince1970: 1_800_000_000))
        return SessionScript(
            name, flow: TodoFlows.name, summary: summary, schemaVersion: schemaVersion,
            initialState: TodoState(), reducer: { TodoFeature(api: TodoAPI(failingCalls: failingCalls)) },
            now: { clock.next() }, script: play
        )
    }
}

/// Times a second apart, for scripted sessions that must record the same times on every run.
final class StepTimes: @unchecked Sendable {
    // Read and changed only under `lock`.
    private let lock = NSLock()
    private var current: Date

    init(start: Date) {
        current = start
    }

    func next() -> Date {
        lock.lock()
        defer { lock.unlock() }
        current += 1
        return current
    }
}
