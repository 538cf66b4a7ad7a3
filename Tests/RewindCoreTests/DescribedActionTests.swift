import RewindCore
import Testing

/// The defaults of `DescribedAction`: what an app gets by declaring the conformance alone.
@Suite struct DescribedActionTests {
    /// An action whose `description` says something else than its cases, as apps do for logs.
    enum TodoAction: Codable, Equatable, Sendable, DescribedAction, CustomStringConvertible {
        case didTapClearCompleted
        case didRename(id: Int, title: String)

        var description: String { "a todo action" }
    }

    enum Settings {
        enum Action: Codable, Equatable, Sendable, DescribedAction {
            case didToggleSync
        }
    }

    @Test func theNameIsTheCaseWhateverTheDescription() {
        #expect(TodoAction.didTapClearCompleted.name == "didTapClearCompleted")
        #expect(TodoAction.didRename(id: 1, title: "x").name == "didRename")
    }

    @Test func theOriginIsTheTypesNameWithoutAction() {
        #expect(TodoAction.didTapClearCompleted.origin == "todo")
        #expect(Settings.Action.didToggleSync.origin == "settings")
    }
}
