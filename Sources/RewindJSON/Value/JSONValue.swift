import Foundation

/// A JSON document held as a tree, the form in which Rewind records every state of a store.
///
/// Equality is exact rather than semantic: strings compare by their UTF-8 bytes (so two
/// canonically equivalent spellings of "é" differ), doubles by bit pattern (so `0.0 != -0.0`),
/// and `.int(1) != .double(1.0)`. Two finite values are therefore equal exactly when their
/// canonical texts are equal, which is what makes digests and patches trustworthy.
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

extension JSONValue: Hashable {
    // Matching the cases of each side in turn rather than through a tuple of both lets the
    // payloads be borrowed instead of copied.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch lhs {
        case .null:
            if case .null = rhs { return true }
        case .bool(let a):
            if case .bool(let b) = rhs { return a == b }
        case .int(let a):
            if case .int(let b) = rhs { return a == b }
        case .double(let a):
            if case .double(let b) = rhs { return a.bitPattern == b.bitPattern }
        case .string(let a):
            if case .string(let b) = rhs { return UTF8Bytes.equal(a, b) }
        case .array(let a):
            if case .array(let b) = rhs { return elementsEqual(a, b) }
        case .object(let a):
            if case .object(let b) = rhs { return a == b }
        }
        return false
    }

    /// Element-wise equality, immediate for arrays sharing storage (copy-on-write subtrees
    /// left unchanged).
    static func elementsEqual(_ a: [JSONValue], _ b: [JSONValue]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                a.baseAddress == b.baseAddress || a.indices.allSatisfy { equal(a, $0, b, $0) }
            }
        }
    }

    /// Whether `a[i] == b[j]`, answered from their bytes alone when those are the same.
    ///
    /// Equal bytes mean the same case and the same payload: the same number, or the same
    /// string or storage, so equal values. Unequal bytes may still be equal values (a case
    /// whose payload is shorter leaves bytes unwritten), which `==` then decides. The bytes
    /// spare it the retains and releases of copying both values out, which in a recorder's
    /// diff of two states sharing the trees of their unchanged elements cost about 300
    /// instructions an element (callgrind; `JSONPatch.between`).
    static func equal(_ a: UnsafeBufferPointer<JSONValue>, _ i: Int, _ b: UnsafeBufferPointer<JSONValue>, _ j: Int) -> Bool {
        a.hasSameBytes(at: i, as: b, at: j) || a[i] == b[j]
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0 as UInt8)
        case .bool(let value):
            hasher.combine(1 as UInt8)
            hasher.combine(value)
        case .int(let value):
            hasher.combine(2 as UInt8)
            hasher.combine(value)
        case .double(let value):
            hasher.combine(3 as UInt8)
            hasher.combine(value.bitPattern)
        case .string(let value):
            hasher.combine(4 as UInt8)
            UTF8Bytes.hash(value, into: &hasher)
        case .array(let elements):
            hasher.combine(5 as UInt8)
            hasher.combine(elements)
        case .object(let object):
            hasher.combine(6 as UInt8)
            hasher.combine(object)
        }
    }
}

extension JSONValue {
    /// Whether both values are containers on the same storage, which makes them equal at no
    /// cost; an unchanged part of a state copied from its predecessor is such a container.
    func sharesStorage(with other: JSONValue) -> Bool {
        switch self {
        case .array(let a):
            if case .array(let b) = other { return Self.sameBuffer(a, b) }
        case .object(let a):
            if case .object(let b) = other { return Self.sameBuffer(a.values, b.values) && Self.sameBuffer(a.keys, b.keys) }
        case .null, .bool, .int, .double, .string:
            break
        }
        return false
    }

    /// Whether both values are scalars and equal; false for containers, whatever they hold.
    func isScalar(equalTo other: JSONValue) -> Bool {
        switch self {
        case .array, .object: return false
        case .null, .bool, .int, .double, .string: return self == other
        }
    }

    private static func sameBuffer<Element>(_ a: [Element], _ b: [Element]) -> Bool {
        a.count == b.count && a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }

    /// The value at `path`, or `nil` when some component is missing or hits the wrong kind of
    /// value, an id selects no element or several, or the path has a `[*]` (see `matches(of:)`).
    public subscript(path: JSONPath) -> JSONValue? {
        var current = self
        for component in path.components {
            switch (component, current) {
            case let (.key(key), .object(object)):
                guard let next = object[key] else { return .none }
                current = next
            case let (.index(index), .array(elements)):
                guard elements.indices.contains(index) else { return .none }
                current = elements[index]
            case let (.id(id), .array(elements)):
                guard let index = JSONIdentity.index(of: id, in: elements) else { return .none }
                current = elements[index]
            default:
                return .none
            }
        }
        return current
    }
}

extension JSONValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) {
        self = .null
    }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) {
        self = .int(value)
    }
}

extension JSONValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) {
        self = .double(value)
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension JSONValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Builds an object; as with `JSONObject.init(_:)`, the last of duplicate keys wins.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}
