import Foundation

/// A JSON value as WebDriver carries it: what a script returns, and the arguments and bodies
/// that commands take.
///
/// An enum rather than `Any`, so that results can be compared with `==` in `#expect` and cross
/// concurrency domains. Numbers are `Double`, as they are in JavaScript.
public enum BrowserValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([BrowserValue])
    case object([String: BrowserValue])

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number when it is a whole one that fits an `Int`.
    public var int: Int? {
        guard let number, number.rounded() == number, abs(number) < 9.0e15 else { return nil }
        return Int(number)
    }

    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var array: [BrowserValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var object: [String: BrowserValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    public var isNull: Bool { self == .null }

    /// Whether JavaScript would take the value as true in a condition (objects and arrays are).
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .number(let value): value != 0 && !value.isNaN
        case .string(let value): !value.isEmpty
        case .array, .object: true
        }
    }

    /// The member `key` of an object; nil for a missing member or a value of another kind.
    public subscript(key: String) -> BrowserValue? {
        object?[key]
    }

    /// The element at `index` of an array; nil when out of range or not an array.
    public subscript(index: Int) -> BrowserValue? {
        guard let array, array.indices.contains(index) else { return nil }
        return array[index]
    }

    /// The value as JSON text.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }
}

extension BrowserValue: CustomStringConvertible {
    public var description: String { json }
}

extension BrowserValue: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Bool before Double: the decoder refuses `true` as a number and `1` as a Bool.
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([BrowserValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: BrowserValue].self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

// Literals, so that tests write `evaluate(script, [40, "two"])` and `#expect(value == [1, nil])`.
extension BrowserValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension BrowserValue: ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: BrowserValue...) { self = .array(elements) }

    public init(dictionaryLiteral elements: (String, BrowserValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
