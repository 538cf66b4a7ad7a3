/// A coding path kept as a linked list from the innermost key outwards.
///
/// Descending into a value then costs one small node at most, rather than a copy of the
/// whole `[any CodingKey]` array; the array is only built when someone asks for it.
final class CodingPathNode {
    let parent: CodingPathNode?
    let key: any CodingKey

    init(parent: CodingPathNode?, key: any CodingKey) {
        self.parent = parent
        self.key = key
    }

    /// The keys from the root down to `key`, below the path of `parent`.
    static func codingPath(parent: CodingPathNode?, key: (any CodingKey)?) -> [any CodingKey] {
        var path: [any CodingKey] = []
        if let key { path.append(key) }
        var node = parent
        while let current = node {
            path.append(current.key)
            node = current.parent
        }
        path.reverse()
        return path
    }
}
