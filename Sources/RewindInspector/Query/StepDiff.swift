import RewindJSON
import RewindLog
import RewindRendering

/// A field-level diff between two steps, in one log or across two.
public struct StepDiff: Sendable {
    public let from: String
    public let to: String
    public let changes: [JSONChange]

    /// Diffs the states at two steps; with `path`, only the changes at the places it names
    /// (in either state), inside them, or of a whole value that holds one.
    public init(from: StepReference, to: StepReference, path: JSONPath? = nil) throws(LogError) {
        let old = try from.resolve(), new = try to.resolve()
        self.from = old.label
        self.to = new.label
        let changes = JSONDiff.changes(from: old.state, to: new.state)
        guard let path else {
            self.changes = changes
            return
        }
        // The places the path names, as the diff names them: `items[2]` of an identified array
        // is the diff's `items[id=…]`.
        let named = old.state.matches(of: path, namingByID: true) + new.state.matches(of: path, namingByID: true)
        guard !named.isEmpty else {
            throw LogError(.noSuchValue, "\(path) names nothing in either state (\(old.label), \(new.label))")
        }
        let places = [path] + named.map(\.path)
        self.changes = changes.filter { change in
            places.contains { $0.covers(change.path) || change.path.covers($0) }
        }
    }

    public func lines(style: TextStyle) -> [String] {
        [style.heading(TerminalText.escaped("\(from) → \(to)"))] + DiffRenderer(style: style).render(changes)
    }

    public var json: JSONValue {
        ["from": .string(from), "to": .string(to), "changes": .array(changes.map(\.jsonForm))]
    }
}
