import RewindJSON

/// Changes in short, as a timeline row and a history line list them: `path: old → new`,
/// `path + value`, `path − value`, `path ↕ [1] → [0]`, the first few and `+N more`; recorded
/// strings escaped for a terminal (``TerminalText``). The HTML report writes the same text.
public struct ChangeSummary: Sendable {
    public var style: TextStyle
    /// How many changes a line lists before `+N more`.
    public var changesPerLine = 3

    public init(style: TextStyle = .plain) {
        self.style = style
    }

    /// The first `changesPerLine` changes, then `+N more`.
    public func parts(_ changes: [JSONChange]) -> [String] {
        var parts = changes.prefix(changesPerLine).map(describe)
        if changes.count > changesPerLine {
            parts.append("+\(changes.count - changesPerLine) more")
        }
        return parts
    }

    /// One change in short: an old value in 20 characters, a new one in 24, and two long
    /// strings cut where they differ.
    public func describe(_ change: JSONChange) -> String {
        let (path, kind) = change.collapsingRedaction
        let styled = style.path(path)
        func summary(_ value: JSONValue, _ limit: Int) -> String { TerminalText.escaped(ValueSummary.describe(value, limit: limit)) }
        switch kind {
        case let .added(value): return "\(styled) + \(summary(value, 24))"
        case let .removed(value): return "\(styled) − \(summary(value, 24))"
        case let .changed(old, new):
            if let strings = ValueSummary.differingStrings(old, new, limit: 20) { return "\(styled): \(TerminalText.escaped(strings))" }
            return "\(styled): \(summary(old, 20)) → \(summary(new, 24))"
        case let .moved(from, to): return "\(styled) ↕ [\(from)] → [\(to)]"
        }
    }
}
