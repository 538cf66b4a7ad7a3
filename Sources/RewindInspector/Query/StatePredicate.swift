import RewindJSON

/// A condition on a recorded state, such as `photos.count > 10 and alert != null`.
///
/// `init(parsing:)` reads the predicate language of `rewind find` (see `docs/cli/find.md`);
/// `matches(_:)` evaluates it against one state. Its description is the predicate fully
/// parenthesized, which shows how it was read:
/// `(photos.count > 10 and (not status == "failed"))`.
public struct StatePredicate: Sendable, Hashable, CustomStringConvertible {
    /// How a path's value is compared with a literal.
    public enum Comparison: String, Sendable, Hashable, CaseIterable {
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    /// What a condition reads from the state: the value at a path, where a last dotted
    /// `.count` that names no real key gives the size of the value before it.
    public struct Operand: Sendable, Hashable, CustomStringConvertible {
        /// The path as written, `.count` included.
        public var path: JSONPath
        /// Whether the path ends in a dotted `.count`, which may ask for a size.
        public var endsInCount: Bool

        public init(path: JSONPath, endsInCount: Bool) {
            self.path = path
            self.endsInCount = endsInCount
        }

        public var description: String { path.description }
    }

    /// The syntax tree of a predicate.
    public indirect enum Expression: Sendable, Hashable {
        /// `PATH OP LITERAL`.
        case compare(Operand, Comparison, JSONValue)
        /// `PATH contains LITERAL`: a substring of a string, an element of an array.
        case contains(Operand, JSONValue)
        /// A bare `PATH`: the value exists and is neither `null` nor `false`.
        case exists(Operand)
        case not(Expression)
        case and(Expression, Expression)
        case or(Expression, Expression)
        /// `any(…)`: the inner predicate holds for some place the path (ending in `[*]`) names,
        /// that place standing for the path in the inner predicate's paths.
        case any(JSONPath, Expression)
        /// `all(…)`: the same for every place the path names (so for none, it holds).
        case all(JSONPath, Expression)
    }

    /// The text the predicate was read from.
    public let text: String
    /// What it was read as.
    public let expression: Expression

    /// A predicate over an already built expression; `text` is then its description.
    public init(_ expression: Expression) {
        self.expression = expression
        self.text = Self.describe(expression)
    }

    init(text: String, expression: Expression) {
        self.text = text
        self.expression = expression
    }

    /// Whether `state` satisfies the predicate.
    public func matches(_ state: JSONValue) -> Bool {
        Self.evaluate(expression, in: state)
    }

    public var description: String { Self.describe(expression) }

    static func describe(_ expression: Expression) -> String {
        switch expression {
        case let .compare(operand, comparison, literal): "\(operand) \(comparison.rawValue) \(literal.canonicalString)"
        case let .contains(operand, literal): "\(operand) contains \(literal.canonicalString)"
        case let .exists(operand): operand.description
        case let .not(inner): "(not \(describe(inner)))"
        case let .and(left, right): "(\(describe(left)) and \(describe(right)))"
        case let .or(left, right): "(\(describe(left)) or \(describe(right)))"
        case let .any(_, inner): "any(\(describe(inner)))"
        case let .all(_, inner): "all(\(describe(inner)))"
        }
    }

    // Two predicates are the same when they were read the same, however they were spelled.
    public static func == (lhs: StatePredicate, rhs: StatePredicate) -> Bool {
        lhs.expression == rhs.expression
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(expression)
    }
}
