/// A strict RFC 8259 parser over contiguous UTF-8.
///
/// It walks indices into an `UnsafeBufferPointer` rather than `Character`s, and keeps the
/// members of the containers being parsed on shared stacks, so that each finished array or
/// object costs one exactly-sized allocation instead of a series of regrowths. All input-driven
/// arithmetic is bounds- or overflow-checked: any byte sequence yields a value or an error.
struct JSONParser {
    /// How many arrays and objects may enclose one another; deeper input is an error, which
    /// keeps the recursion far from the stack's end on any thread.
    static let maximumDepth = 512

    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    var valueStack = ParserStack<JSONValue>(capacity: 8)
    /// The keys of the objects being parsed, each with its offset for error messages.
    var keyStack = ParserStack<(key: String, offset: Int)>(capacity: 8)
    /// Reused for strings with escapes, the only ones that cannot be sliced from the input.
    var scratch: [UInt8] = []

    /// Parses one document with optional surrounding whitespace.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONParseError> {
        var parser = JSONParser(bytes: bytes)
        return Result { () throws(JSONParseError) in try parser.parseDocument() }
    }

    init(bytes: UnsafeBufferPointer<UInt8>) {
        // The stacks start with room for small documents: regrowing them one member at a
        // time was a third of parsing a recorded action.
        self.bytes = bytes
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if let byte = peek() {
            throw error("unexpected \(Self.describe(byte)) after the JSON value")
        }
        return value
    }

    func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    func error(_ reason: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(offset: offset ?? position, reason: reason)
    }

    static func describe(_ byte: UInt8) -> String {
        if (0x20...0x7E).contains(byte) {
            return "character '\(Character(Unicode.Scalar(byte)))'"
        }
        let hex = String(byte, radix: 16)
        return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                position += 1
            default:
                return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard let byte = peek() else { throw error("unexpected end of input, expected a value") }
        switch byte {
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < Self.maximumDepth else {
                throw error("nesting exceeds the maximum depth of \(Self.maximumDepth)")
            }
            return byte == UInt8(ascii: "{") ? try parseObject(depth: depth + 1) : try parseArray(depth: depth + 1)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        default:
            throw error("unexpected \(Self.describe(byte)), expected a value")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - position >= count,
            UnsafeBufferPointer(rebasing: bytes[position..<position + count])
                .elementsEqual(UnsafeBufferPointer(start: literal.utf8Start, count: count))
        else { throw error("invalid literal, expected '\(literal)'") }
        position += count
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        position += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            return .array([])
        }
        let stackStart = valueStack.count
        while true {
            valueStack.append(try parseValue(depth: depth))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "]") { throw error("trailing comma in array") }
            case UInt8(ascii: "]"):
                position += 1
                return .array(valueStack.removeAll(from: stackStart))
            case let byte?:
                throw error("unexpected \(Self.describe(byte)), expected ',' or ']' after array element")
            case nil:
                throw error("unexpected end of input, expected ',' or ']' after array element")
            }
        }
    }
}
