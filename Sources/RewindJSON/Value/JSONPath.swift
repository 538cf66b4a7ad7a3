/// The location of a value inside a JSON document, such as `photos[3].title`, or a pattern of
/// locations, such as `photos[id=12].title` or `photos[*].status`.
///
/// Its description is also its syntax, which `init(parsing:)` reads back: keys that are
/// identifiers (`[A-Za-z_][A-Za-z0-9_]*`) are joined with dots, indices and other keys are
/// bracketed (`[3]`, `["odd key"]`, with JSON string escaping), an element chosen by its `id`
/// member is `[id=12]` or `[id="a-b"]` (the id as a JSON scalar), every element or member is
/// `[*]`, and the root is `.`.
///
/// Keys and indices name one place. An id names the element of an array whose `id` member
/// equals it, wherever it sits, which is how a list of identified elements is followed across
/// inserts, deletes and moves. `[*]` names many places: ``JSONValue/matches(of:)`` lists them.
public struct JSONPath: Hashable, Sendable {
    /// One step down into a document.
    public enum Component: Hashable, Sendable {
        /// A member of an object.
        case key(String)
        /// An element of an array.
        case index(Int)
        /// The element of an array that is an object whose `id` member equals this scalar.
        case id(JSONValue)
        /// Every element of an array, or every member of an object.
        case wildcard

        // Keys compare by UTF-8 bytes, like the object keys they address.
        public static func == (lhs: Component, rhs: Component) -> Bool {
            switch (lhs, rhs) {
            case let (.key(a), .key(b)): UTF8Bytes.equal(a, b)
            case let (.index(a), .index(b)): a == b
            case let (.id(a), .id(b)): a == b
            case (.wildcard, .wildcard): true
            default: false
            }
        }

        public func hash(into hasher: inout Hasher) {
            switch self {
            case .key(let key):
                hasher.combine(0 as UInt8)
                UTF8Bytes.hash(key, into: &hasher)
            case .index(let index):
                hasher.combine(1 as UInt8)
                hasher.combine(index)
            case .id(let id):
                hasher.combine(2 as UInt8)
                hasher.combine(id)
            case .wildcard:
                hasher.combine(3 as UInt8)
            }
        }

        /// Whether the component names exactly one place by position: a key or an index.
        public var isPositional: Bool {
            switch self {
            case .key, .index: true
            case .id, .wildcard: false
            }
        }
    }

    /// The steps from the root, outermost first.
    public var components: [Component]

    /// The path made of `components`, outermost first.
    public init(_ components: [Component]) {
        self.components = components
    }

    /// The path of the whole document.
    public static let root = JSONPath([])

    /// This path extended by one step.
    public func appending(_ component: Component) -> JSONPath {
        JSONPath(components + [component])
    }

    /// The path without its last component; the root's parent is the root.
    public var parent: JSONPath {
        JSONPath(Array(components.dropLast()))
    }

    /// Whether the path is empty, designating the whole document.
    public var isRoot: Bool { components.isEmpty }

    /// Whether the path has a `[*]`, so that it may name many places.
    public var hasWildcard: Bool { components.contains(.wildcard) }

    /// Whether every component is a key or an index, as in a stored patch.
    public var isPositional: Bool { components.allSatisfy(\.isPositional) }

    /// Whether `other` is this path or lies inside it, `[*]` in this path standing for any one
    /// component of `other`: `photos[*]` covers `photos[id=3].title` and `photos[2]`.
    public func covers(_ other: JSONPath) -> Bool {
        guard components.count <= other.components.count else { return false }
        for (mine, theirs) in zip(components, other.components) where mine != .wildcard && mine != theirs {
            return false
        }
        return true
    }
}

extension JSONPath: CustomStringConvertible {
    /// The path in the syntax `init(parsing:)` reads, such as `photos[3].title`, or `.` for the root.
    public var description: String {
        guard !components.isEmpty else { return "." }
        var text = ""
        for component in components {
            switch component {
            case .key(let key) where Self.isIdentifier(key):
                if !text.isEmpty { text += "." }
                text += key
            case .key(let key):
                text += "[\(JSONParser.quoted(key))]"
            case .index(let index):
                text += "[\(index)]"
            case .id(let id):
                text += "[id=\(id)]"
            case .wildcard:
                text += "[*]"
            }
        }
        return text
    }

    static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, isIdentifierStart(first) else { return false }
        return key.utf8.allSatisfy { isIdentifierStart($0) || JSONParser.isDigit($0) }
    }

    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"): true
        default: false
        }
    }
}

extension JSONPath: ExpressibleByStringLiteral {
    /// Parses a literal path such as `"photos[3].title"`; an invalid literal is a programming
    /// error and stops the program with the parse error's description.
    public init(stringLiteral value: String) {
        do {
            try self.init(parsing: value)
        } catch {
            preconditionFailure(error.description)
        }
    }
}
