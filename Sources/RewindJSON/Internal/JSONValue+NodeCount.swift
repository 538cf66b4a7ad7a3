extension JSONValue {
    /// The number of values in the tree, this one included.
    var nodeCount: Int {
        switch self {
        case .null, .bool, .int, .double, .string: 1
        case .array(let elements): elements.reduce(1) { $0 + $1.nodeCount }
        case .object(let object): object.values.reduce(1) { $0 + $1.nodeCount }
        }
    }
}
