import RewindCore
import RewindJSON
import RewindRendering

/// Formats timeline entries as aligned text lines, every recorded string escaped for a
/// terminal (``TerminalText``) before the columns are measured.
public struct TimelineRenderer: Sendable {
    /// How many changes a line names before it says how many more there are.
    public var changesPerLine = 3
    /// The widest the action column grows; a longer action is cut to it with `…`, so that the
    /// changes after it stay in one column. 64 keeps an id whole in a payload
    /// (`renameItem(id: "5f0c6a5e-8d1b-4c53-9a4e-2b7d1f3c9e01", …)` is 57). Origins are never
    /// cut: a child's names the element it runs for (`photos/thumbnail[4]`).
    public var actionWidth = 64
    /// About how many characters of an action's payload are shown (``ValueSummary``); `step`
    /// widens it, and the action column, to the terminal's width.
    public var payloadLimit = 48
    public var style: TextStyle
    /// Column widths kept from one page to the next, once fixed.
    private var widths: (origin: Int, action: Int)?

    public init(style: TextStyle = .plain) {
        self.style = style
    }

    /// Keeps the columns that fit `entries` for every later page, unless already kept.
    public mutating func fixWidths(for entries: [TimelineEntry]) {
        if widths == nil { widths = columnWidths(entries) }
    }

    private func columnWidths(_ entries: [TimelineEntry]) -> (origin: Int, action: Int) {
        (min(24, entries.map { TerminalText.escaped($0.origin).count }.max() ?? 0), min(actionWidth, entries.map { actionText($0).count }.max() ?? 0))
    }

    /// One line per entry: step, time offset, origin, action with its payload, and changes.
    public func render(_ entries: [TimelineEntry]) -> [String] {
        let (originWidth, actionWidth) = widths ?? columnWidths(entries)
        let actionTexts = entries.map(actionText)
        return zip(entries, actionTexts).map { entry, action in
            let step = String(entry.step).leftPadded(to: 5)
            let offset = String(format: "+%.3fs", entry.offset).leftPadded(to: 9)
            let origin = TerminalText.escaped(entry.origin).rightPadded(to: originWidth)
            let causeMark = entry.cause.map { " ←\($0)" } ?? ""
            let cell = action.cut(to: actionWidth).rightPadded(to: actionWidth)
            var line = "\(style.dim(step)) \(style.dim(offset))  \(style.origin(origin))  \(style.action(cell))"
            // The steps missing before it, on a line of their own: its state is stored whole.
            let missing = entry.missing.map { style.dim("".leftPadded(to: 5) + " " + TerminalText.escaped($0.text)) + "\n" } ?? ""
            let summary = changeSummary(entry)
            if !summary.isEmpty { line += "  " + summary }
            line += style.dim(causeMark)
            return missing + line
        }
    }

    /// `name(payload)` or `name`, escaped.
    func actionText(_ entry: TimelineEntry) -> String {
        let payload = ValueSummary.payload(of: entry.action, name: entry.name, limit: payloadLimit)
        return TerminalText.escaped(payload.isEmpty ? entry.name : "\(entry.name)(\(payload))")
    }

    /// `path: old → new` for the first few changes, outputs last.
    func changeSummary(_ entry: TimelineEntry) -> String {
        var summary = ChangeSummary(style: style)
        summary.changesPerLine = changesPerLine
        var parts = summary.parts(entry.changes)
        if entry.changes.isEmpty { parts.append(style.dim(entry.missing == nil ? "(no change)" : "(the whole state: the steps before are missing)")) }
        for output in entry.outputs {
            parts.append(style.output("⇧ \(TerminalText.escaped(output))"))
        }
        return parts.joined(separator: ", ")
    }
}
