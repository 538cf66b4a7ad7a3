import RewindCodable
import RewindCore

/// Everything that changes the todo list: what the user does, and the sync service's answer.
///
/// `DescribedAction` needs nothing more: the origin defaults to `todo` (the type's name
/// without `Action`), each name to its case.
@RewindCodable
public enum TodoAction: Codable, Equatable, Sendable, DescribedAction {
    case addItem(title: String)
    case renameItem(id: Int, title: String)
    case toggleItem(id: Int)
    case deleteItem(id: Int)
    case clearCompleted
    /// Schema version 1 called it `setFilter`; see ``TodoFlows/renameSetFilter``.
    case filterChanged(TodoState.Filter)
    case tokenEntered(Secret)
    case syncTapped
    case syncResponse(SyncResult)

    /// What the sync service answered: an effect's result comes back as an action.
    @RewindCodable
    public enum SyncResult: Codable, Equatable, Sendable {
        case success(revision: Int)
        case failure(message: String)
    }
}
