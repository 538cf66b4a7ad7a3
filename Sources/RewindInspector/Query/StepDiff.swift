import RewindJSON
import RewindLog
import RewindRendering

/// A field-level diff between two steps, in one log or across two.
public struct StepDiff: Sendable {
    public let from: String
    public let to: String
    public let changes: [JSONChange]

    /// Diffs the states at two steps.
    public init(from: StepReference, to: StepReference) throws(LogError) {
        let old = try from.resolve(), new = try to.resolve()
        self.from = old.label
        self.to = new.label
        changes = JSONDiff.changes(from: old.state, to: new.state)
    }

    public func lines(style: TextStyle) -> [String] {
        [style.heading("\(from) → \(to)")] + DiffRenderer(style: style).render(changes)
    }

    public var json: JSONValue {
        ["from": .string(from), "to": .string(to), "changes": .array(changes.map(\.jsonForm))]
    }
}
