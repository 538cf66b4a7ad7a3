import RewindCore
import RewindJSON
import RewindTesting
import Testing
import TodoApp

/// The app marks its state and actions `@RewindCodable`, so recording and replay build and read
/// their trees without `Codable`; these check that the trees are the ones `Codable` gives.
@Suite struct TreeCodingTests {
    /// Every action case, and the states a run of them leaves, sync results included.
    static let actions: [TodoAction] = [
        .addItem(title: "Buy milk"), .addItem(title: "Call \"Ada\" 🦉"), .renameItem(id: 2, title: "Call Grace"),
        .toggleItem(id: 1), .filterChanged(.completed), .tokenEntered(Secret("s3cret-token")), .syncTapped,
        .syncResponse(.success(revision: 4)), .syncResponse(.failure(message: "offline")), .deleteItem(id: 2),
        .filterChanged(.active), .clearCompleted, .addItem(title: ""),
    ]

    @Test func theAppsStatesAndActionsAgreeWithCodable() throws {
        let feature = TodoFeature(api: TodoAPI())
        var state = TodoState()
        var states = [state]
        for action in Self.actions {
            _ = feature.reduce(into: &state, action: action)
            states.append(state)
        }
        state.sync = .syncing
        states.append(state)
        try verifyTreeCoding(of: states)
        try verifyTreeCoding(of: Self.actions)
        try verifyTreeCoding(of: TodoState.Filter.allCases)
    }

    @Test func theStateTakesTheTreePath() {
        #expect((TodoState() as Any) is any JSONTreeCodable)
        #expect((TodoAction.syncTapped as Any) is any JSONTreeCodable)
    }
}
