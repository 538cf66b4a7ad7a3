// Written by `rewind write-test` (Rewind 0.2.0), exhaustive, from:
//   todo-sync-retry.rewind, session 1 "todo-sync-retry" (flow todo, steps 0–7)
// Each step asserts the fields it changed; the effects it started are asserted by name and
// their recorded results delivered, so no effect runs. Write it again rather than edit it
// when the recording changes; docs/testing.md says what it does not check.

import RewindCore
import RewindTesting
import Testing

@testable import TodoApp

@MainActor
@Test("todo-sync-retry (session 1)")
func todoSyncRetry() async throws {
    let store = TestStore(
        initialState: try decodedFromRecordedJSON(#"{"apiToken":{"$redacted":0},"filter":"all","items":[],"nextID":1,"sync":{"idle":{}}}"#),
        reducer: TodoFeature(api: TodoAPI()),
        effects: .byName
    )
    // Step 1.
    store.send(.addItem(title: "Plan the trip")) {
        $0.items.append(TodoItem(id: 1, title: "Plan the trip", isDone: false))
        $0.nextID = 2
    }
    // Step 2.
    store.send(.syncTapped) {
        $0.sync = .failed(message: "Enter your API token first.")
    }
    // Step 3.
    store.send(.tokenEntered(Secret(redactedLength: 13))) {
        $0.apiToken = Secret(redactedLength: 13)
    }
    // Step 4.
    store.send(.syncTapped, starts: ["todo.sync"]) {
        $0.sync = .syncing
    }
    // Step 5, the result of step 4's work.
    store.deliver(.syncResponse(.failure(message: "The network is down.")), from: "todo.sync") {
        $0.sync = .failed(message: "The network is down.")
    }
    // Step 6.
    store.send(.syncTapped, starts: ["todo.sync"]) {
        $0.sync = .syncing
    }
    // Step 7, the result of step 6's work.
    store.deliver(.syncResponse(.success(revision: 2)), from: "todo.sync") {
        $0.sync = .synced(revision: 2)
    }
    await store.finish()
}
