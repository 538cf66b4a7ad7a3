import RewindJSON

extension StatePredicate {
    /// Reads a predicate such as `status == "failed" or photos.count > 10`.
    ///
    /// The grammar, loosest first (`not` binds tighter than `and`, `and` than `or`):
    ///
    ///     predicate  := or
    ///     or         := and ("or" and)*
    ///     and        := unary ("and" unary)*
    ///     unary      := "not" unary | "(" predicate ")" | quantified | condition
    ///     quantified := ("any" | "all") "(" predicate ")"
    ///     condition  := PATH [("==" | "!=" | "<" | "<=" | ">" | ">=" | "contains") LITERAL]
    ///     LITERAL    := STRING | NUMBER | "true" | "false" | "null"
    ///
    /// A PATH with `[*]` belongs inside `any(…)` or `all(…)`, whose paths with `[*]` (outside
    /// any nested `any` or `all`) share the part up to their last `[*]`: the places that part
    /// names are what the quantifier ranges over.
    public init(parsing text: String) throws(StatePredicateError) {
        var parser = Parser(text: text, tokens: try PredicateLexer.tokens(of: text))
        self.init(text: text, expression: try parser.parse())
    }

    /// A recursive-descent parser over the lexer's tokens, one function per grammar rule.
    private struct Parser {
        let text: String
        let tokens: [PredicateLexer.Token]
        var index = 0
        /// The paths with `[*]` read since the innermost `any` or `all` began, with their tokens.
        var wildcardPaths: [(path: JSONPath, token: PredicateLexer.Token)]?

        init(text: String, tokens: [PredicateLexer.Token]) {
            self.text = text
            self.tokens = tokens
        }

        // The lexer always ends the list with `.end`, which is never consumed.
        var current: PredicateLexer.Token { tokens[min(index, tokens.count - 1)] }

        func fail(_ reason: String, at token: PredicateLexer.Token) -> StatePredicateError {
            StatePredicateError(text: text, column: token.column, reason: reason)
        }

        /// `found 'x'`, or `found the end`.
        func found(_ token: PredicateLexer.Token) -> String {
            token.kind == .end ? "found the end" : "found '\(token.text)'"
        }

        mutating func advance() -> PredicateLexer.Token {
            let token = current
            if token.kind != .end { index += 1 }
            return token
        }

        mutating func parse() throws(StatePredicateError) -> Expression {
            if current.kind == .end { throw fail("expected a condition, found nothing", at: current) }
            let expression = try parseOr()
            guard current.kind == .end else {
                throw fail("expected 'and', 'or' or the end, \(found(current))", at: current)
            }
            return expression
        }

        mutating func parseOr() throws(StatePredicateError) -> Expression {
            var expression = try parseAnd()
            while current.kind == .or {
                _ = advance()
                expression = .or(expression, try parseAnd())
            }
            return expression
        }

        mutating func parseAnd() throws(StatePredicateError) -> Expression {
            var expression = try parseUnary()
            while current.kind == .and {
                _ = advance()
                expression = .and(expression, try parseUnary())
            }
            return expression
        }

        mutating func parseUnary() throws(StatePredicateError) -> Expression {
            let token = advance()
            switch token.kind {
            case .not:
                return .not(try parseUnary())
            case .open:
                let inner = try parseOr()
                guard current.kind == .close else {
                    throw fail("expected ')' to close the '(' at column \(token.column), \(found(current))", at: current)
                }
                _ = advance()
                return inner
            case let .path(operand) where operand.path == JSONPath([.key("any")]) || operand.path == JSONPath([.key("all")]):
                if current.kind == .open { return try parseQuantified(token) }
                return try parseCondition(operand)
            case let .path(operand):
                if operand.path.hasWildcard {
                    guard wildcardPaths != nil else {
                        throw fail("a path with [*] goes inside any(...) or all(...), like any(\(token.text) == true)", at: token)
                    }
                    wildcardPaths?.append((operand.path, token))
                }
                return try parseCondition(operand)
            case .literal:
                throw fail("expected a path before '\(token.text)'; a condition reads PATH OP VALUE", at: token)
            default:
                throw fail("expected a path, 'not' or '(', \(found(token))", at: token)
            }
        }

        /// `any(` or `all(` and what follows, up to the `)`.
        mutating func parseQuantified(_ word: PredicateLexer.Token) throws(StatePredicateError) -> Expression {
            let open = advance()
            let outer = wildcardPaths
            wildcardPaths = []
            let inner = try parseOr()
            guard current.kind == .close else {
                throw fail("expected ')' to close the '(' at column \(open.column), \(found(current))", at: current)
            }
            _ = advance()
            let paths = wildcardPaths ?? []
            wildcardPaths = outer
            guard let first = paths.first else {
                throw fail("\(word.text)(...) ranges over a path with [*], like \(word.text)(items[*].done == true)", at: word)
            }
            let places = Self.placesPart(of: first.path)
            for other in paths.dropFirst() where Self.placesPart(of: other.path) != places {
                throw fail(
                    "the paths with [*] in one \(word.text)(...) must share the part up to their last [*]: \(places) and \(other.token.text)", at: other.token)
            }
            // Its places may lie inside an enclosing quantifier's, up to its own last [*].
            let enclosing = JSONPath(Array(places.components.dropLast()))
            if enclosing.hasWildcard { wildcardPaths?.append((enclosing, word)) }
            return word.text == "any" ? .any(places, inner) : .all(places, inner)
        }

        /// A path up to and with its last `[*]`.
        static func placesPart(of path: JSONPath) -> JSONPath {
            let last = path.components.lastIndex(of: .wildcard) ?? path.components.endIndex - 1
            return JSONPath(Array(path.components[...last]))
        }

        /// What follows a path: an operator and a literal, or nothing for an existence test.
        mutating func parseCondition(_ operand: Operand) throws(StatePredicateError) -> Expression {
            switch current.kind {
            case let .comparison(comparison):
                let op = advance()
                return .compare(operand, comparison, try parseLiteral(after: op))
            case .contains:
                let op = advance()
                return .contains(operand, try parseLiteral(after: op))
            default:
                return .exists(operand)
            }
        }

        mutating func parseLiteral(after op: PredicateLexer.Token) throws(StatePredicateError) -> JSONValue {
            let token = current
            switch token.kind {
            case let .literal(value):
                _ = advance()
                return value
            case .path:
                throw fail("expected a value after '\(op.text)', found '\(token.text)' (strings take double quotes)", at: token)
            case .end:
                throw fail("expected a value after '\(op.text)'", at: token)
            default:
                throw fail("expected a value after '\(op.text)', \(found(token))", at: token)
            }
        }
    }
}
