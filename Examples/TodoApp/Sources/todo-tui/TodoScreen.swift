import TodoApp

/// What `todo-tui` draws: a pure function of the store's state and the screen's own state,
/// so that a redraw is the same screen whatever caused it.
struct TodoScreen {
    /// The screen's own state, which the store does not hold: the selected row and the title
    /// being typed.
    struct Cursor {
        var selected = 0
        /// The title typed after `a`, until Enter adds it or Escape drops it; nil when not typing.
        var draft: String?
    }

    var state: TodoState
    /// The store's present step.
    var step: Int
    var isTravelling: Bool
    var heldActions: Int
    /// Where the store is shown live, if anywhere.
    var live: String?
    var cursor: Cursor

    /// The screen, one string per line, without line ends.
    var lines: [String] {
        let rule = String(repeating: "─", count: 60)
        var lines = ["Todo · step \(step)" + (live.map { " · live in \(Self.shown($0))" } ?? ""), rule]
        if isTravelling {
            let held = heldActions == 1 ? "1 action held" : "\(heldActions) actions held"
            lines.append("⏸ PAUSED by the inspector: a past state is shown, \(held). Resume from the page.")
            lines.append(rule)
        }
        let items = state.visibleItems
        if items.isEmpty {
            lines.append("  (nothing to do)")
        }
        for (row, item) in items.enumerated() {
            let pointer = row == cursor.selected ? ">" : " "
            lines.append("\(pointer) [\(item.isDone ? "x" : " ")] #\(item.id) \(Self.shown(item.title))")
        }
        lines.append(rule)
        let done = state.items.filter(\.isDone).count
        lines.append("filter: \(state.filter.rawValue) · \(state.items.count) items, \(done) done · sync: \(Self.shown(state.sync))")
        if let draft = cursor.draft {
            lines.append("New item: \(Self.shown(draft))_   (Enter adds, Esc cancels)")
        } else {
            lines.append("a add · space toggle · d delete · f filter · c clear done · s sync · ↑↓ move · q quit")
        }
        return lines
    }

    /// `text` with control and format characters (an escape sequence, a right-to-left
    /// override) written as `\u{…}`: a title comes from whoever typed it or an inspector's
    /// dispatch, and must not drive the terminal.
    static func shown(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator:
                shown += "\\u{\(String(scalar.value, radix: 16))}"
            default:
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    private static func shown(_ sync: TodoState.SyncStatus) -> String {
        switch sync {
        case .idle: "idle"
        case .syncing: "syncing…"
        case .synced(let revision): "synced (revision \(revision))"
        case .failed(let message): "failed: \(shown(message))"
        }
    }
}
