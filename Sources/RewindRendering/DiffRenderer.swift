import RewindJSON

/// Formats field-level changes one per line: `~ path: old → new`, `+ path: value`, `- path: value`,
/// `↕ items[id=3]: moved [0] → [2]`, paths and values escaped for a terminal (``TerminalText``).
/// Two long strings are cut where they differ (``ValueSummary/differingStrings(_:_:limit:)``).
public struct DiffRenderer: Sendable {
    public var style: TextStyle
    /// How long a value may print before it is shortened.
    public var valueLimit = 120

    public init(style: TextStyle = .plain) {
        self.style = style
    }

    public func render(_ changes: [JSONChange]) -> [String] {
        if changes.isEmpty { return [style.dim("(no differences)")] }
        return changes.map { change in
            let (path, kind) = change.collapsingRedaction
            let name = style.path(path)
            switch kind {
            case let .added(value):
                return "\(style.added("+")) \(name): \(summary(value))"
            case let .removed(value):
                return "\(style.removed("-")) \(name): \(summary(value))"
            case let .changed(old, new):
                if let strings = ValueSummary.differingStrings(old, new, limit: valueLimit) {
                    return "\(style.changed("~")) \(name): \(TerminalText.escaped(strings))"
                }
                return "\(style.changed("~")) \(name): \(summary(old)) → \(summary(new))"
            case let .moved(from, to):
                return "\(style.changed("↕")) \(name): moved [\(from)] → [\(to)]"
            }
        }
    }

    private func summary(_ value: JSONValue) -> String {
        TerminalText.escaped(ValueSummary.describe(value, limit: valueLimit))
    }
}
