import Foundation
import RewindJSON
import Testing
import TodoApp

/// The app's list of items is identified (each `TodoItem` has an `id`), so its diffs, paths
/// and histories name items by id: a delete is one removal, and `items[id=3]` is item 3
/// wherever it sits.
@Suite struct IdentityTests {
    @Test func deletingAnItemIsOneRemovalNamedByID() throws {
        let recording = Package.recording("todo-basics")
        let result = try TodoRewind.run(["diff", recording, "8", "9"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("\n" + #"- items[id=2]: {"id":2,"isDone":false,"title":"Water the plants"}"# + "\n"))
    }

    @Test func anItemsHistoryFollowsItAcrossTheDelete() throws {
        let recording = Package.recording("todo-basics")
        let byID = try TodoRewind.run(["history", recording, "items[id=3].isDone"])
        #expect(
            byID.stdout == """
                    0  (initial)       items[id=3].isDone: (absent)
                    3  addItem         items[id=3].isDone: (absent) → false
                    6  toggleItem      items[id=3].isDone: false → true
                   10  clearCompleted  items[id=3].isDone: true → (absent)

                """)
        // A position is another item once the one before it is deleted.
        let byIndex = try TodoRewind.run(["history", recording, "items[1].isDone"])
        #expect(byIndex.stdout.contains("    9  deleteItem      items[1].isDone: false → true"))
    }

    @Test func findAsksAboutEveryItem() throws {
        let result = try TodoRewind.run(["find", Package.recording("todo-basics"), "--where", "all(items[*].isDone) and items.count > 1", "--first"])
        #expect(result.stdout == "#1 todo-basics  step 9  deleteItem\n", "deleting the one item left undone leaves two, both done")
        let some = try TodoRewind.run(["find", Package.recording("todo-basics"), "--where", "any(items[*].isDone)", "--first"])
        #expect(some.stdout == "#1 todo-basics  step 5  toggleItem\n")
    }

    @Test func theAppsOwnStatesDiffByIDThroughTheLibrary() throws {
        var state = TodoState()
        state.items = [TodoItem(id: 1, title: "a"), TodoItem(id: 2, title: "b"), TodoItem(id: 3, title: "c")]
        var after = state
        after.items.remove(at: 0)
        after.items.swapAt(0, 1)
        let changes = JSONDiff.changes(from: try JSONValueEncoder().encode(state), to: try JSONValueEncoder().encode(after))
        #expect(changes.map(\.description) == [#"items[id=1]: - {"id":1,"isDone":false,"title":"a"}"#, "items[id=3]: moved [2] -> [0]"])
        let places = try JSONValueEncoder().encode(after).matches(of: "items[*].title")
        #expect(places.map(\.path.description) == ["items[id=3].title", "items[id=2].title"])
    }
}
