/// Mixes the lazily built path node into the tree coders, which all descend the same way.
protocol CodingPathTracking: AnyObject {
    /// The path of the coder that made this one, or `nil` at the root.
    var parentNode: CodingPathNode? { get }
    /// The key below `parentNode` this coder works at, or `nil` at the root.
    var key: (any CodingKey)? { get }
    var cachedNode: CodingPathNode? { get set }
}

extension CodingPathTracking {
    var codingPath: [any CodingKey] {
        CodingPathNode.codingPath(parent: parentNode, key: key)
    }

    /// The node children hang from, created the first time a child needs it.
    var pathNode: CodingPathNode? {
        guard let key else { return parentNode }
        if let cachedNode { return cachedNode }
        let node = CodingPathNode(parent: parentNode, key: key)
        cachedNode = node
        return node
    }

    /// This coder's path extended by `key`, for error reports.
    func codingPath(appending key: (any CodingKey)?) -> [any CodingKey] {
        var path = codingPath
        if let key { path.append(key) }
        return path
    }
}
