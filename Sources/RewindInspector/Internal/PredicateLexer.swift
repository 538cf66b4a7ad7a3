import RewindJSON

/// Splits the text of a ``StatePredicate`` into tokens, each with its one-based column.
///
/// Columns count Unicode scalars. Paths are read with `JSONPath(parsing:)`, string literals
/// and numbers with `JSONValue(parsing:)`, so their syntax and escapes are JSON's.
struct PredicateLexer {
    /// One word of a predicate.
    struct Token: Equatable {
        enum Kind: Equatable {
            case path(StatePredicate.Operand)
            case literal(JSONValue)
            case comparison(StatePredicate.Comparison)
            case contains, and, or, not
            case open, close
            case end
        }

        var kind: Kind
        /// Where the token starts, from 1.
        var column: Int
        /// The token as written, for messages; empty at the end.
        var text: String
    }

    private let source: String
    private let scalars: [Unicode.Scalar]
    private var position = 0

    /// How many tokens a predicate may hold, which bounds how deep its tree and the
    /// recursion over it go.
    static let maximumTokens = 2_000

    /// The tokens of `text`, ending with `.end`.
    static func tokens(of text: String) throws(StatePredicateError) -> [Token] {
        var lexer = PredicateLexer(source: text)
        var tokens: [Token] = []
        repeat {
            let token = try lexer.next()
            guard tokens.count < maximumTokens else {
                throw lexer.fail("the predicate is too long (more than \(maximumTokens) words)", at: token.column - 1)
            }
            tokens.append(token)
        } while tokens.last?.kind != .end
        return tokens
    }

    private init(source: String) {
        self.source = source
        self.scalars = Array(source.unicodeScalars)
    }

    private func fail(_ reason: String, at index: Int) -> StatePredicateError {
        StatePredicateError(text: source, column: index + 1, reason: reason)
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    private mutating func next() throws(StatePredicateError) -> Token {
        while let scalar = peek(), [" ", "\t", "\n", "\r"].contains(scalar) { position += 1 }
        let start = position
        guard let scalar = peek() else { return Token(kind: .end, column: start + 1, text: "") }
        func token(_ kind: Token.Kind, length: Int) -> Token {
            position += length
            return Token(kind: kind, column: start + 1, text: String(String.UnicodeScalarView(scalars[start..<position])))
        }
        switch scalar {
        case "(": return token(.open, length: 1)
        case ")": return token(.close, length: 1)
        case "=" where peek(1) == "=": return token(.comparison(.equal), length: 2)
        case "!" where peek(1) == "=": return token(.comparison(.notEqual), length: 2)
        case "<" where peek(1) == "=": return token(.comparison(.lessOrEqual), length: 2)
        case ">" where peek(1) == "=": return token(.comparison(.greaterOrEqual), length: 2)
        case "<": return token(.comparison(.less), length: 1)
        case ">": return token(.comparison(.greater), length: 1)
        case "=": throw fail("unexpected '='; compare with '=='", at: start)
        case "!": throw fail("unexpected '!'; negate with 'not'", at: start)
        case "&": throw fail("unexpected '&'; combine with 'and'", at: start)
        case "|": throw fail("unexpected '|'; combine with 'or'", at: start)
        case "'": throw fail("unexpected \"'\"; strings take double quotes", at: start)
        case "\"": return try string()
        case "-", "0"..."9": return try number()
        case "a"..."z", "A"..."Z", "_", ".", "[": return try pathOrKeyword()
        default: throw fail("unexpected character '\(scalar)'", at: start)
        }
    }

    /// A double-quoted string with JSON's escapes.
    private mutating func string() throws(StatePredicateError) -> Token {
        let start = position
        position += 1
        while let scalar = peek(), scalar != "\"" {
            position += scalar == "\\" ? 2 : 1
        }
        guard peek() == "\"" else { throw fail("unterminated string", at: start) }
        position += 1
        let text = String(String.UnicodeScalarView(scalars[start..<position]))
        do {
            return Token(kind: .literal(try JSONValue(parsing: text)), column: start + 1, text: text)
        } catch {
            throw fail("invalid string: \(error.reason)", at: start + Self.scalarOffset(ofUTF8Offset: error.offset, in: text))
        }
    }

    /// An integer or decimal number, as JSON writes them.
    private mutating func number() throws(StatePredicateError) -> Token {
        let start = position
        position += 1
        while let scalar = peek() {
            if ("0"..."9").contains(scalar) || scalar == "." || scalar == "e" || scalar == "E" {
                position += 1
            } else if scalar == "+" || scalar == "-", scalars[position - 1] == "e" || scalars[position - 1] == "E" {
                position += 1
            } else {
                break
            }
        }
        let text = String(String.UnicodeScalarView(scalars[start..<position]))
        guard let value = try? JSONValue(parsing: text) else { throw fail("invalid number '\(text)'", at: start) }
        return Token(kind: .literal(value), column: start + 1, text: text)
    }

    /// A path like `photos[3].title`, or one of the words `and or not contains true false null`.
    private mutating func pathOrKeyword() throws(StatePredicateError) -> Token {
        let start = position
        while let scalar = peek() {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_", ".":
                position += 1
            case "[":
                skipBracket()
            default:
                return try finishPath(from: start)
            }
        }
        return try finishPath(from: start)
    }

    /// Steps over `[…]`, quoted keys included, up to and with its `]` if there is one.
    private mutating func skipBracket() {
        position += 1
        while let scalar = peek(), scalar != "]" {
            if scalar == "\"" {
                position += 1
                while let inner = peek(), inner != "\"" { position += inner == "\\" ? 2 : 1 }
            }
            position += 1
        }
        if peek() == "]" { position += 1 }
        position = min(position, scalars.count)
    }

    private func finishPath(from start: Int) throws(StatePredicateError) -> Token {
        let text = String(String.UnicodeScalarView(scalars[start..<position]))
        let column = start + 1
        switch text {
        case "and": return Token(kind: .and, column: column, text: text)
        case "or": return Token(kind: .or, column: column, text: text)
        case "not": return Token(kind: .not, column: column, text: text)
        case "contains": return Token(kind: .contains, column: column, text: text)
        case "true": return Token(kind: .literal(.bool(true)), column: column, text: text)
        case "false": return Token(kind: .literal(.bool(false)), column: column, text: text)
        case "null": return Token(kind: .literal(.null), column: column, text: text)
        default: break
        }
        do {
            let path = try JSONPath(parsing: text)
            let operand = StatePredicate.Operand(path: path, endsInCount: text.hasSuffix(".count") && path.components.last == .key("count"))
            return Token(kind: .path(operand), column: column, text: text)
        } catch {
            throw fail("\(error.reason) in the path \(text)", at: start + Self.scalarOffset(ofUTF8Offset: error.offset, in: text))
        }
    }

    /// How many Unicode scalars of `text` come before its UTF-8 byte `offset`.
    static func scalarOffset(ofUTF8Offset offset: Int, in text: String) -> Int {
        var bytes = 0, scalars = 0
        for scalar in text.unicodeScalars {
            bytes += UTF8.width(scalar)
            guard bytes <= offset else { break }
            scalars += 1
        }
        return scalars
    }
}
