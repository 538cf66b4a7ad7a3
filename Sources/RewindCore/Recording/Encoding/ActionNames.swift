import RewindJSON

/// The names of a session's actions, read once per shape of encoded action.
///
/// `DescribedAction.name` by default reads the case by reflection, which cost a quarter of the
/// writer's time for the login flow. A name depends on which cases an action is made of, not
/// on its payload, and the encoded action shows those cases as its keys: so the writer asks an
/// action for its name only the first time its keys, with every scalar left out, are seen.
@usableFromInline
struct ActionNames {
    private var names: [Shape: String] = [:]
    /// The shape being read, its buffer kept from step to step.
    private var shape: [UInt8] = []
    /// The last shape read and its name.
    private var lastShape: [UInt8] = []
    private var lastName: String?
    /// Shapes beyond this many (payloads with keys of their own, like dictionaries) are not
    /// remembered, so memory stays bounded.
    private let limit = 4_096

    @usableFromInline
    init() {}

    // The encoder's generic code, inlined in the app's module, asks; only asking the action
    // for its name is generic.

    /// The name of `action`, whose encoded form is `encoded`.
    @inlinable
    mutating func name(of action: some DescribedAction, encoded: JSONValue) -> String {
        readShape(of: encoded)
        return knownName() ?? remember(action.name)
    }

    /// The name of `action`, whose text and tape `written` holds: the same shape, read off
    /// the tape.
    @inlinable
    mutating func name(of action: some DescribedAction, written: borrowing JSONStateWriter) -> String {
        if let lastName = lastName(ifShapeOf: written) { return lastName }
        readShape(of: written)
        return knownName() ?? remember(action.name)
    }

    /// The last name, if `written` has the last shape read: compared as the tape is walked,
    /// without writing its shape (actions often come in runs of one kind, like keystrokes).
    @usableFromInline
    func lastName(ifShapeOf written: borrowing JSONStateWriter) -> String? {
        guard let lastName else { return nil }
        let matches = written.withNodes { nodes in
            written.text.withBytes { text in
                lastShape.withUnsafeBufferPointer { expected in
                    var offset = 0
                    if nodes.isEmpty { return expected.isEmpty }
                    return Self.shape(of: 0, in: nodes, text: text, matches: expected, at: &offset) && offset == expected.count
                }
            }
        }
        return matches ? lastName : nil
    }

    @usableFromInline
    mutating func readShape(of encoded: JSONValue) {
        shape.removeAll(keepingCapacity: true)
        Self.appendShape(of: encoded, to: &shape)
    }

    @usableFromInline
    mutating func readShape(of written: borrowing JSONStateWriter) {
        shape.removeAll(keepingCapacity: true)
        written.withNodes { nodes in
            if !nodes.isEmpty { written.text.withBytes { Self.appendShape(of: 0, in: nodes, text: $0, to: &shape) } }
        }
    }

    /// The name remembered for the shape read.
    @usableFromInline
    mutating func knownName() -> String? {
        // Actions often come in runs of one kind (keystrokes): the last shape is checked
        // first, without hashing.
        if let lastName, lastShape == shape { return lastName }
        guard let name = names[Shape(bytes: shape)] else { return nil }
        rememberLast(name)
        return name
    }

    /// Remembers `name` for the shape read, and returns it.
    @usableFromInline
    mutating func remember(_ name: String) -> String {
        if names.count < limit { names[Shape(bytes: shape)] = name }
        rememberLast(name)
        return name
    }

    private mutating func rememberLast(_ name: String) {
        // Copied, so that `shape` keeps its buffer to itself.
        lastShape.removeAll(keepingCapacity: true)
        lastShape.append(contentsOf: shape)
        lastName = name
    }

    /// A shape's bytes as a key, hashed in one pass: as a `String` key, a shape cost an
    /// allocation and a check of its UTF-8 at each step (an eighth of encoding a login step).
    private struct Shape: Hashable {
        var bytes: [UInt8]

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    /// Writes the shape of node `index` of `nodes`, the tape of `text`, as
    /// ``appendShape(of:to:)`` writes a tree's.
    private static func appendShape(
        of index: Int, in nodes: UnsafeBufferPointer<JSONStateNode>, text: UnsafeBufferPointer<UInt8>, to shape: inout [UInt8]
    ) {
        let node = nodes[index]
        switch node.kind {
        case .object, .array:
            let isObject = node.kind == .object
            shape.append(UInt8(ascii: isObject ? "{" : "["))
            var child = index + 1
            while child < node.after {
                if isObject {
                    shape.append(contentsOf: UnsafeBufferPointer(rebasing: text[nodes[child].key]))
                    shape.append(UInt8(ascii: ":"))
                }
                appendShape(of: child, in: nodes, text: text, to: &shape)
                shape.append(UInt8(ascii: ","))
                child = nodes[child].after
            }
            shape.append(UInt8(ascii: isObject ? "}" : "]"))
        case .tree:
            // A value written whole: its tree's shape.
            let tree = try? JSONValue(parsing: UnsafeBufferPointer(rebasing: text[node.range]))
            appendShape(of: tree ?? .null, to: &shape)
        case .null, .bool, .int, .double, .string:
            shape.append(UInt8(ascii: "_"))
        }
    }

    /// Whether the shape of node `index` of `nodes`, the tape of `text`, is what `expected`
    /// holds from `offset`, which it moves past the shape; as ``appendShape(of:in:text:to:)``
    /// would write it. A value written whole (a tree) never matches: its shape is written.
    private static func shape(
        of index: Int, in nodes: UnsafeBufferPointer<JSONStateNode>, text: UnsafeBufferPointer<UInt8>,
        matches expected: UnsafeBufferPointer<UInt8>, at offset: inout Int
    ) -> Bool {
        func next(_ byte: UInt8) -> Bool {
            guard offset < expected.count, expected[offset] == byte else { return false }
            offset += 1
            return true
        }
        let node = nodes[index]
        switch node.kind {
        case .object, .array:
            let isObject = node.kind == .object
            guard next(UInt8(ascii: isObject ? "{" : "[")) else { return false }
            var child = index + 1
            while child < node.after {
                if isObject {
                    for byte in UnsafeBufferPointer(rebasing: text[nodes[child].key]) where !next(byte) { return false }
                    guard next(UInt8(ascii: ":")) else { return false }
                }
                guard shape(of: child, in: nodes, text: text, matches: expected, at: &offset), next(UInt8(ascii: ",")) else { return false }
                child = nodes[child].after
            }
            return next(UInt8(ascii: isObject ? "}" : "]"))
        case .tree:
            return false
        case .null, .bool, .int, .double, .string:
            return next(UInt8(ascii: "_"))
        }
    }

    /// Writes the keys and nesting of `value`, each scalar as `_`.
    private static func appendShape(of value: JSONValue, to shape: inout [UInt8]) {
        switch value {
        case let .object(object):
            shape.append(UInt8(ascii: "{"))
            for (key, child) in object {
                shape.append(contentsOf: key.utf8)
                shape.append(UInt8(ascii: ":"))
                appendShape(of: child, to: &shape)
                shape.append(UInt8(ascii: ","))
            }
            shape.append(UInt8(ascii: "}"))
        case let .array(elements):
            shape.append(UInt8(ascii: "["))
            for element in elements {
                appendShape(of: element, to: &shape)
                shape.append(UInt8(ascii: ","))
            }
            shape.append(UInt8(ascii: "]"))
        case .null, .bool, .int, .double, .string:
            shape.append(UInt8(ascii: "_"))
        }
    }
}
