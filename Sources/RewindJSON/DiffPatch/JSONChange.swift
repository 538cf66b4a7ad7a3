/// One leaf-level difference between two JSON values, as shown to people.
public struct JSONChange: Hashable, Sendable {
    /// What happened at the path.
    public enum Kind: Hashable, Sendable {
        /// The path exists only in the new value.
        case added(JSONValue)
        /// The path exists only in the old value.
        case removed(JSONValue)
        /// The path holds different values, possibly of different types.
        case changed(from: JSONValue, to: JSONValue)
        /// The element of an identified array at the path (an `[id=…]`) moved from one index
        /// to another, other than by elements before it coming or going.
        case moved(from: Int, to: Int)
    }

    /// Where the change is: in the new value for additions and changes, in the old value for
    /// removals.
    public let path: JSONPath
    /// What happened there.
    public let kind: Kind

    /// A change of `kind` at `path`.
    public init(path: JSONPath, kind: Kind) {
        self.path = path
        self.kind = kind
    }
}

extension JSONChange: CustomStringConvertible {
    /// One line such as `photos[3].title: "a" -> "b"`, `tags[2]: + "new"`, `draft: - true` or
    /// `items[id=3]: moved [0] -> [2]`.
    public var description: String {
        switch kind {
        case .added(let value): "\(path): + \(value)"
        case .removed(let value): "\(path): - \(value)"
        case .changed(let old, let new): "\(path): \(old) -> \(new)"
        case .moved(let from, let to): "\(path): moved [\(from)] -> [\(to)]"
        }
    }
}
