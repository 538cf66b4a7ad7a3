import RewindCore
import TodoApp

/// The todo list in a terminal: keys send actions to the store, and the screen is redrawn
/// from the store's state each time it changes (`observe`), as a SwiftUI view would be. What
/// a live inspector does to the store (a travel, a skip, a dispatch) shows the same way.
@MainActor
final class TodoTerminalApp {
    let store: Store<TodoState, TodoAction>
    let terminal: Terminal
    let live: String?
    private var cursor = TodoScreen.Cursor()
    private var observation: StoreObservation?

    init(store: Store<TodoState, TodoAction>, terminal: Terminal, live: String?) {
        self.store = store
        self.terminal = terminal
        self.live = live
        // Every change redraws: items are equal by id alone, so a toggle or a rename would
        // look like no change to `==`.
        observation = store.observe(\.self, removingDuplicates: { _, _ in false }, onChange: { [weak self] _ in self?.draw() })
    }

    func draw() {
        let visible = store.state.visibleItems.count
        cursor.selected = max(0, min(cursor.selected, visible - 1))
        let screen = TodoScreen(
            state: store.state, step: store.step, isTravelling: store.isTravelling, heldActions: store.heldActionCount, live: live,
            cursor: cursor)
        terminal.draw(screen.lines)
    }

    /// Carries out `key`; false when it asks the app to end.
    func handle(_ key: Terminal.Key) -> Bool {
        if key == .interrupt { return false }
        if let draft = cursor.draft {
            switch key {
            case .enter:
                cursor.draft = nil
                if !draft.isEmpty { store.send(.addItem(title: draft)) }
            case .escape: cursor.draft = nil
            case .backspace: cursor.draft = String(draft.dropLast())
            case .character(let character): cursor.draft = draft + String(character)
            default: break
            }
            draw()
            return true
        }
        // The item under the cursor, among those the filter shows.
        let selected = store.state.visibleItems.indices.contains(cursor.selected) ? store.state.visibleItems[cursor.selected] : nil
        switch key {
        case .character("q"): return false
        case .character("a"): cursor.draft = ""
        case .character(" "), .enter: if let selected { store.send(.toggleItem(id: selected.id)) }
        case .character("d"): if let selected { store.send(.deleteItem(id: selected.id)) }
        case .character("c"): store.send(.clearCompleted)
        case .character("s"): store.send(.syncTapped)
        case .character("f"):
            let filters = TodoState.Filter.allCases
            let next = filters[(filters.firstIndex(of: store.state.filter)! + 1) % filters.count]
            store.send(.filterChanged(next))
        case .up, .character("k"): cursor.selected -= 1
        case .down, .character("j"): cursor.selected += 1
        default: break
        }
        // Also when the store held the action back: the count of held actions changed.
        draw()
        return true
    }
}
