/// A small structural edit turning one JSON value into another, the form in which Rewind
/// stores each state as a change to the previous one.
///
/// `JSONPatch.between(old, new)` computes one and `JSONValue.applying(_:)` replays it, with
/// `old.applying(.between(old, new)) == new` for all values. Operations apply in order, each
/// to the result of the ones before it.
public struct JSONPatch: Hashable, Sendable {
    /// One edit at a path.
    public enum Operation: Hashable, Sendable {
        /// Replaces the value at the path: the whole document, an object member (inserted if
        /// missing) or an existing array element.
        case set(JSONPath, JSONValue)
        /// Removes an object member, which must exist.
        case remove(JSONPath)
        /// Replaces the elements in `range` of the array at the path with `with`; an empty
        /// range inserts, an empty `with` deletes.
        case splice(JSONPath, range: Range<Int>, with: [JSONValue])
    }

    /// The edits, applied in order.
    public var operations: [Operation]

    /// A patch made of `operations`, applied in order.
    public init(_ operations: [Operation] = []) {
        self.operations = operations
    }

    /// Whether the patch changes nothing.
    public var isEmpty: Bool { operations.isEmpty }
}

extension JSONPatch.Operation {
    /// The path the operation addresses.
    public var path: JSONPath {
        switch self {
        case .set(let path, _), .remove(let path), .splice(let path, _, _): path
        }
    }

    /// A rough size of the operation, used to choose the smaller of two candidate patches.
    var cost: Int {
        switch self {
        case .set(_, let value): 1 + value.nodeCount
        case .remove: 1
        case .splice(_, _, let values): values.reduce(1) { $0 + $1.nodeCount }
        }
    }
}
