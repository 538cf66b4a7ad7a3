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

/// The coding keys this library makes up itself: array positions and `super`.
///
/// Positions read `Index 3`, the spelling Foundation's coders use, so that paths in errors
/// look the same whichever coder produced them. The text is only made when asked for, and
/// the enum fits an existential's inline buffer, so keying an array element allocates nothing.
enum JSONCodingKey: CodingKey {
    case index(Int)
    case named(String)

    init(stringValue: String) {
        self = .named(stringValue)
    }

    init(intValue: Int) {
        self = .index(intValue)
    }

    var stringValue: String {
        switch self {
        case .index(let index): "Index \(index)"
        case .named(let name): name
        }
    }

    var intValue: Int? {
        if case .index(let index) = self { index } else { nil }
    }

    static let `super` = JSONCodingKey.named("super")
}

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
