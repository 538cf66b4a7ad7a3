import Foundation
import RewindCore
import RewindLog

/// A todo list whose items have ids, recorded as an app would: for the report's diffs and
/// histories of identified elements.
enum TodoListSessions {
    struct Item: Codable, Equatable, Sendable {
        var id: String
        var title: String
        var isDone = false
    }

    struct State: Codable, Equatable, Sendable {
        var items: [Item] = []
    }

    enum Action: Codable, Equatable, Sendable, DescribedAction {
        case add(id: String, title: String)
        case toggle(id: String)
        case rename(id: String, title: String)
        case delete(id: String)
        case moveToTop(id: String)
    }

    struct Feature: Reducer {
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case let .add(id, title): state.items.append(Item(id: id, title: title))
            case let .toggle(id): state.items = state.items.map { $0.id == id ? Item(id: id, title: $0.title, isDone: !$0.isDone) : $0 }
            case let .rename(id, title): state.items = state.items.map { $0.id == id ? Item(id: id, title: title, isDone: $0.isDone) : $0 }
            case let .delete(id): state.items.removeAll { $0.id == id }
            case let .moveToTop(id): state.items.sort { a, _ in a.id == id }
            }
            return .none
        }
    }

    /// Steps 1–3 add a, b and c; 4 ticks b; 5 deletes a; 6 moves c to the top; 7 renames b;
    /// 8 deletes b.
    @MainActor
    static func record(into path: String) throws {
        let sink = try SQLiteSink(path: path)
        let recorder = Recorder<State, Action>(sink: sink, session: SessionDescriptor(name: "todo-ids", flow: "todo", now: { .testEpoch }))
        let store = Store(initialState: State(), reducer: Feature(), middleware: [recorder])
        for action: Action in [
            .add(id: "a", title: "Milk"), .add(id: "b", title: "Bread"), .add(id: "c", title: "Eggs"), .toggle(id: "b"),
            .delete(id: "a"), .moveToTop(id: "c"), .rename(id: "b", title: "Rye bread"), .delete(id: "b"),
        ] {
            store.send(action)
        }
        recorder.close()
        try sink.close()
    }
}
