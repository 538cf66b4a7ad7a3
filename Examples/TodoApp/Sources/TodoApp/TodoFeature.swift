import Foundation
import RewindCore

/// The todo list's reducer.
public struct TodoFeature: Reducer, Sendable {
    /// The shortest token the service accepts: the only thing the reducer reads of the token,
    /// so a replay, which sees a placeholder of the same length, checks it the same way.
    public static let minimumTokenLength = 8

    let api: TodoAPI

    public init(api: TodoAPI) {
        self.api = api
    }

    public func reduce(into state: inout TodoState, action: TodoAction) -> Effect<TodoAction> {
        switch action {
        case let .addItem(title):
            let title = title.trimmingCharacters(in: .whitespaces)
            guard !title.isEmpty else { return .none }
            state.items.append(TodoItem(id: state.nextID, title: title))
            state.nextID += 1
            return .none

        case let .renameItem(id, title):
            guard let index = state.items.firstIndex(where: { $0.id == id }) else { return .none }
            state.items[index].title = title
            return .none

        case let .toggleItem(id):
            guard let index = state.items.firstIndex(where: { $0.id == id }) else { return .none }
            state.items[index].isDone.toggle()
            return .none

        case let .deleteItem(id):
            state.items.removeAll { $0.id == id }
            return .none

        case .clearCompleted:
            state.items.removeAll(where: \.isDone)
            return .none

        case let .filterChanged(filter):
            state.filter = filter
            return .none

        case let .tokenEntered(token):
            state.apiToken = token
            return .none

        case .syncTapped:
            guard state.apiToken.count >= Self.minimumTokenLength else {
                state.sync = .failed(message: "Enter your API token first.")
                return .none
            }
            state.sync = .syncing
            let (items, token) = (state.items, state.apiToken)
            return .run(name: "todo.sync") { [api] send in
                await send(.syncResponse(await api.sync(items, token: token)))
            }

        case let .syncResponse(.success(revision)):
            state.sync = .synced(revision: revision)
            return .none

        case let .syncResponse(.failure(message)):
            state.sync = .failed(message: message)
            return .none
        }
    }
}
