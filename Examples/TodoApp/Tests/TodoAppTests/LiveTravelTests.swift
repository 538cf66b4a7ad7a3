import Foundation
import RewindCore
import RewindJSON
import RewindLive
import Testing
import TodoApp

/// The todo app's running store sent back to a step and past a skipped one, and given an
/// action as JSON, through the public API (docs/live.md), each checked against what the app's
/// own inspector prints.
@MainActor
@Suite struct LiveTravelTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-tests-\(UUID().uuidString)")

    /// The state `todo-rewind show PATH STEP --json` prints.
    private func shown(_ path: String, _ step: String) throws -> JSONValue {
        let show = try TodoRewind.run(["show", path, step, "--json"])
        #expect(show.status == 0, "\(show.stderr)")
        return try JSONValue(parsing: show.stdout)[JSONPath("state")] ?? .null
    }

    @Test func travelAndSkipShowWhatTheInspectorPrints() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("live.rewind").path
        let session = SessionDescriptor(name: "live", flow: TodoFlows.name, schemaVersion: TodoFlows.schemaVersion)
        let store = Store(
            initialState: TodoState(), reducer: TodoFeature(api: TodoAPI()), recordingTo: try .sqlite(path: path), session: session)
        for number in 1...8 { store.send(.addItem(title: "Item \(number)")) }
        store.send(.toggleItem(id: 3))
        store.send(.renameItem(id: 5, title: "Renamed"))
        store.send(.deleteItem(id: 2))
        store.send(.filterChanged(.active))
        let traveller = LiveTraveller(store: store, reducer: TodoFeature(api: TodoAPI()), logPath: path, session: session)

        try traveller.perform(.travel(step: 10))
        #expect(try JSONValueEncoder().encode(store.state) == (try shown(path, "10")))
        #expect(store.state.items.count == 8 && store.state.items[4].title == "Renamed" && store.state.filter == .all)
        store.send(.clearCompleted)
        #expect(store.heldActionCount == 1)

        try traveller.perform(.skip(step: 3))
        let whatIf = folder.appendingPathComponent("what-if.rewind").path
        let replay = try TodoRewind.run(["replay", path, "--skip", "3", "--output", whatIf])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(try JSONValueEncoder().encode(store.state) == (try shown(whatIf, "-1")))
        // Without step 3, "Item 4" takes id 3 and each later item the id before: the toggle, the
        // rename and the delete of the recording then reach other items.
        #expect(store.state.items.map(\.title) == ["Item 1", "Item 4", "Item 5", "Renamed", "Item 7", "Item 8"])

        try traveller.perform(.resume)
        #expect(!store.isTravelling && store.step == 12 && store.state.filter == .active)
        #expect(try JSONValueEncoder().encode(store.state) == (try shown(path, "12")))

        try traveller.perform(.dispatch(action: ["addItem": ["title": "From the inspector"]]))
        #expect(store.step == 13 && store.state.items.last?.title == "From the inspector")
        store.recorder?.flush()
        let dispatched = try TodoRewind.run(["show", path, "13", "--json"])
        #expect(dispatched.status == 0, "\(dispatched.stderr)")
        let step13 = try JSONValue(parsing: dispatched.stdout)
        #expect(step13[JSONPath("origin")] == "inspector" && step13[JSONPath("action_type")] == "addItem")
        store.recorder?.close()
    }
}
