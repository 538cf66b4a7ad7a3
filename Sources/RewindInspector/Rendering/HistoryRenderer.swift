import RewindJSON
import RewindRendering

/// Formats a ``ValueHistory`` as aligned text lines or as JSON lines, recorded strings escaped
/// for a terminal (``TerminalText``).
public struct HistoryRenderer: Sendable {
    public var style: TextStyle
    /// How long each side of a change may print before it is shortened.
    public var valueLimit = 60

    /// What the step-0 line shows in place of an action.
    static let initialLabel = "(initial)"
    static let firstKeptLabel = "(first kept)"
    /// How an absent value reads.
    static let absent = "(absent)"

    public init(style: TextStyle = .plain) {
        self.style = style
    }

    /// A first line with the value at step 0, then one line per change:
    /// `   18  didTapLogin    status: "idle" → "inFlight"`. A path with `[*]` gets a first line
    /// per place it names at step 0 (`(none)` when it names none), and each line names its place.
    public func text(_ history: ValueHistory) -> [String] {
        let width = min(40, ([Self.initialLabel] + history.changes.map { TerminalText.escaped($0.action) }).map(\.count).max() ?? 0)
        func line(step: Int, action: String, path: JSONPath, change: String) -> String {
            let action = TerminalText.escaped(action).rightPadded(to: width)
            return "\(style.dim(String(step).leftPadded(to: 5)))  \(style.action(action))  \(style.path(path)): \(change)"
        }
        var lines: [String] = []
        // A trimmed session starts at its first kept step, and says so.
        let first = history.session.firstKeptState
        let label = history.session.notKept == nil ? Self.initialLabel : Self.firstKeptLabel
        if let text = history.session.notKeptText { lines.append(style.dim("".leftPadded(to: 5) + "  " + text)) }
        if history.path.hasWildcard {
            for match in history.initial {
                lines.append(line(step: first, action: label, path: match.path, change: describe(match.value)))
            }
            if history.initial.isEmpty { lines.append(line(step: first, action: label, path: history.path, change: style.dim("(none)"))) }
        } else {
            lines.append(line(step: first, action: label, path: history.path, change: describe(history.initialValue)))
        }
        for change in history.changes {
            let text = containerChange(change.old, change.new) ?? "\(describe(change.old)) → \(describe(change.new))"
            lines.append(line(step: change.step, action: change.action, path: change.path, change: text))
        }
        return lines
    }

    /// One compact JSON object per change, keys sorted:
    /// `{"action":"didTapLogin","new":"inFlight","old":"idle","origin":"login","step":18}`;
    /// an absent side is left out, and a path with `[*]` adds the `"path"` of each change.
    public func jsonLines(_ history: ValueHistory) -> [String] {
        history.changes.map { change in
            var fields: [(String, JSONValue)] = [
                ("step", .int(change.step)), ("action", .string(change.action)), ("origin", .string(change.origin)),
            ]
            if history.path.hasWildcard { fields.append(("path", .string(change.path.description))) }
            if let old = change.old { fields.append(("old", old)) }
            if let new = change.new { fields.append(("new", new)) }
            return TerminalText.json(.object(JSONObject(fields)))
        }
    }

    /// What changed inside a list or an object, paths from it: `[id=436].status: "loading" →
    /// "loaded"`, where `[1000 items] → [1000 items]` said nothing. Nil for other values.
    private func containerChange(_ old: JSONValue?, _ new: JSONValue?) -> String? {
        guard let old, let new, ValueSummary.redactedLength(old) == nil, ValueSummary.redactedLength(new) == nil else { return nil }
        switch (old, new) {
        case (.array, .array), (.object, .object):
            return ChangeSummary(style: style).parts(JSONDiff.changes(from: old, to: new)).joined(separator: ", ")
        default:
            return nil
        }
    }

    private func describe(_ value: JSONValue?) -> String {
        guard let value else { return style.dim(Self.absent) }
        return TerminalText.escaped(ValueSummary.describe(value, limit: valueLimit))
    }
}
