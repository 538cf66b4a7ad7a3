import RewindCore

/// A todo list whose state grows as the todo app's does: one of every three actions adds an
/// item, the other two toggle it, so 30,000 steps end with 10,000 items (DESIGN 17's case). What `rewind bench`
/// sends a live inspector to see that a step costs the page the same late in a long session.
struct GrowingList: Reducer, Sendable {
    struct Item: Codable, Equatable, Sendable {
        var id: Int
        var title: String
        var done = false
    }

    struct State: Codable, Equatable, Sendable {
        var items: [Item] = []
    }

    enum Action: Codable, Equatable, Sendable, DescribedAction {
        case add(String)
        case toggle(Int)
        var origin: String { "list" }
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .add(let title):
            state.items.append(Item(id: state.items.count + 1, title: title))
        case .toggle(let id):
            if state.items.indices.contains(id - 1) { state.items[id - 1].done.toggle() }
        }
        return .none
    }

    /// The action of step `index` (from 0).
    static func action(_ index: Int) -> Action {
        index % 3 == 0 ? .add("item \(index / 3 + 1): buy milk, call the bank") : .toggle(index / 3 + 1)
    }
}
