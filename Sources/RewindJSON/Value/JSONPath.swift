/// The location of a value inside a JSON document, such as `photos[3].title`.
///
/// Its description is also its syntax, which `init(parsing:)` reads back: keys that are
/// identifiers (`[A-Za-z_][A-Za-z0-9_]*`) are joined with dots, indices and other keys are
/// bracketed (`[3]`, `["odd key"]`, with JSON string escaping), and the root is `.`.
public struct JSONPath: Hashable, Sendable {
    /// One step down into a document.
    public enum Component: Hashable, Sendable {
        /// A member of an object.
        case key(String)
        /// An element of an array.
        case index(Int)

        // Keys compare by UTF-8 bytes, like the object keys they address.
        public static func == (lhs: Component, rhs: Component) -> Bool {
            switch (lhs, rhs) {
            case let (.key(a), .key(b)): UTF8Bytes.equal(a, b)
            case let (.index(a), .index(b)): a == b
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
