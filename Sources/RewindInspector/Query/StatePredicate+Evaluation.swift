import RewindJSON
import RewindRendering

extension StatePredicate {
    /// Evaluates `expression` against `state`; never fails, a condition that makes no sense
    /// for the value it finds is false.
    static func evaluate(_ expression: Expression, in state: JSONValue) -> Bool {
        switch expression {
        case let .compare(operand, comparison, literal):
            return compare(operand.value(in: state), comparison, literal)
        case let .contains(operand, literal):
            return contains(operand.value(in: state), literal)
        case let .exists(operand):
            switch operand.value(in: state) {
            case nil, .null?, .bool(false)?: return false
            default: return true
            }
        case let .not(inner):
            return !evaluate(inner, in: state)
        case let .and(left, right):
            return evaluate(left, in: state) && evaluate(right, in: state)
        case let .or(left, right):
            return evaluate(left, in: state) || evaluate(right, in: state)
        case let .any(places, inner):
            return state.matches(of: places).contains { evaluate(bind(places, to: $0.path, in: inner), in: state) }
        case let .all(places, inner):
            return state.matches(of: places).allSatisfy { evaluate(bind(places, to: $0.path, in: inner), in: state) }
        }
    }

    /// `expression` with each path that starts with `pattern` starting with `place` instead,
    /// one of the places the pattern names (both have as many components).
    static func bind(_ pattern: JSONPath, to place: JSONPath, in expression: Expression) -> Expression {
        func path(_ path: JSONPath) -> JSONPath {
            guard path.components.starts(with: pattern.components) else { return path }
            return JSONPath(place.components + path.components.dropFirst(pattern.components.count))
        }
        func operand(_ operand: Operand) -> Operand {
            Operand(path: path(operand.path), endsInCount: operand.endsInCount)
        }
        switch expression {
        case let .compare(target, comparison, literal): return .compare(operand(target), comparison, literal)
        case let .contains(target, literal): return .contains(operand(target), literal)
        case let .exists(target): return .exists(operand(target))
        case let .not(inner): return .not(bind(pattern, to: place, in: inner))
        case let .and(left, right): return .and(bind(pattern, to: place, in: left), bind(pattern, to: place, in: right))
        case let .or(left, right): return .or(bind(pattern, to: place, in: left), bind(pattern, to: place, in: right))
        case let .any(places, inner): return .any(path(places), bind(pattern, to: place, in: inner))
        case let .all(places, inner): return .all(path(places), bind(pattern, to: place, in: inner))
        }
    }

    /// `==` and `!=` hold between equal values, numbers by value (`1 == 1.0`) and an absent
    /// value equal to `null`; the orderings hold only between two numbers or two strings.
    static func compare(_ value: JSONValue?, _ comparison: Comparison, _ literal: JSONValue) -> Bool {
        switch comparison {
        case .equal: return equal(value ?? .null, literal)
        case .notEqual: return !equal(value ?? .null, literal)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let value, let order = order(value, literal) else { return false }
            switch comparison {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        }
    }

    /// Equality of JSON values, except that numbers compare by value.
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if let order = numberOrder(a, b) { return order == 0 }
        return a == b
    }

    /// -1, 0 or 1 for two numbers or two strings (by Unicode scalar), nil otherwise.
    static func order(_ a: JSONValue, _ b: JSONValue) -> Int? {
        if let order = numberOrder(a, b) { return order }
        guard case let .string(x) = a, case let .string(y) = b else { return nil }
        if x.unicodeScalars.elementsEqual(y.unicodeScalars) { return 0 }
        return x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars) ? -1 : 1
    }

    /// Compares two numbers exactly when both are integers, as doubles otherwise.
    static func numberOrder(_ a: JSONValue, _ b: JSONValue) -> Int? {
        func sign<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : (x > y ? 1 : 0) }
        switch (a, b) {
        case let (.int(x), .int(y)): return sign(x, y)
        case let (.int(x), .double(y)): return y.isNaN ? nil : sign(Double(x), y)
        case let (.double(x), .int(y)): return x.isNaN ? nil : sign(x, Double(y))
        case let (.double(x), .double(y)): return x.isNaN || y.isNaN ? nil : sign(x, y)
        default: return nil
        }
    }

    /// A string contains a substring; an array contains an element equal to the literal.
    static func contains(_ value: JSONValue?, _ literal: JSONValue) -> Bool {
        switch (value, literal) {
        case let (.string(text)?, .string(part)):
            return part.isEmpty || text.contains(part)
        case let (.array(elements)?, _):
            return elements.contains { equal($0, literal) }
        default:
            return false
        }
    }
}

extension StatePredicate.Operand {
    /// The value the operand reads from `state`, nil when absent.
    ///
    /// A real member named `count` wins; otherwise a dotted `.count` gives the number of
    /// elements of an array, members of an object, or characters of a string, and the length
    /// of a redacted secret.
    public func value(in state: JSONValue) -> JSONValue? {
        if let value = state[path] { return value }
        guard endsInCount, let container = state[path.parent] else { return nil }
        if let length = ValueSummary.redactedLength(container) { return .int(length) }
        switch container {
        case let .array(elements): return .int(elements.count)
        case let .object(object): return .int(object.count)
        case let .string(text): return .int(text.count)
        default: return nil
        }
    }
}
