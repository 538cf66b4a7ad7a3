extension JSONPath {
    /// Reads a path in the syntax of `description`, such as `photos[3].title` or `["odd key"][0]`.
    ///
    /// A leading `.` is accepted (`.login.username`); `.` alone and the empty string are the root.
    public init(parsing text: String) throws(JSONPathError) {
        var utf8 = text
        let result = utf8.withUTF8 { bytes in
            var parser = Parser(bytes: bytes, text: text)
            return Result { () throws(JSONPathError) in try parser.parse() }
        }
        self.init(try result.get())
    }

    /// Reads components left to right over the UTF-8 of the text.
    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        let text: String
        var position = 0
        var components: [Component] = []

        init(bytes: UnsafeBufferPointer<UInt8>, text: String) {
            self.bytes = bytes
            self.text = text
        }

        func fail(_ reason: String) -> JSONPathError {
            JSONPathError(text: text, offset: position, reason: reason)
        }

        func peek() -> UInt8? {
            position < bytes.count ? bytes[position] : nil
        }

        mutating func parse() throws(JSONPathError) -> [Component] {
            if peek() == UInt8(ascii: ".") {
                position += 1
                if peek() == nil { return [] }
            }
            // The first key needs no dot before it; a bracket needs none anywhere.
            if let first = peek(), first != UInt8(ascii: "[") {
                components.append(.key(try identifier()))
            }
            while let byte = peek() {
                position += 1
                switch byte {
                case UInt8(ascii: "."):
                    components.append(.key(try identifier()))
                case UInt8(ascii: "["):
                    components.append(try bracketed())
                default:
                    position -= 1
                    throw fail("unexpected \(JSONParser.describe(byte)), expected '.' or '['")
                }
            }
            return components
        }

        mutating func identifier() throws(JSONPathError) -> String {
            let start = position
            guard let first = peek(), JSONPath.isIdentifierStart(first) else { throw fail("expected a key") }
            while let byte = peek(), JSONPath.isIdentifierStart(byte) || JSONParser.isDigit(byte) {
                position += 1
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        }

        /// Reads what follows a `[`: an index, a JSON string, `*` or `id=` and a JSON scalar,
        /// then the `]`.
        mutating func bracketed() throws(JSONPathError) -> Component {
            let component: Component
            switch peek() {
            case UInt8(ascii: "*")?:
                position += 1
                component = .wildcard
            case UInt8(ascii: "i")?:
                component = .id(try idSelector())
            case UInt8(ascii: "\"")?:
                var parser = JSONParser(bytes: bytes)
                parser.position = position
                do {
                    component = .key(try parser.parseString())
                } catch {
                    position = error.offset
                    throw fail("invalid quoted key: \(error.reason)")
                }
                position = parser.position
            case let byte? where JSONParser.isDigit(byte):
                component = .index(try index())
            default:
                throw fail("expected an index, a quoted key, id=VALUE or * after '['")
            }
            guard peek() == UInt8(ascii: "]") else { throw fail("expected ']'") }
            position += 1
            return component
        }

        /// Reads `id=` and the JSON scalar after it: a number, a quoted string, true, false or null.
        mutating func idSelector() throws(JSONPathError) -> JSONValue {
            for expected in "id=".utf8 {
                guard peek() == expected else { throw fail("expected an index, a quoted key, id=VALUE or * after '['") }
                position += 1
            }
            var parser = JSONParser(bytes: bytes)
            parser.position = position
            let value: JSONValue
            do {
                value = try parser.parseValue(depth: 0)
            } catch {
                if let quoted = quotedID() { throw quoted }
                position = error.offset
                throw fail("invalid id: \(error.reason)")
            }
            if bytes.indices.contains(parser.position), bytes[parser.position] != UInt8(ascii: "]"), let quoted = quotedID() {
                throw quoted
            }
            switch value {
            case .array, .object:
                throw fail("an id is a number, a quoted string, true, false or null")
            case .null, .bool, .int, .double, .string:
                position = parser.position
                return value
            }
        }

        /// An unquoted id that is not a JSON scalar (a UUID, a slug) up to the next `]`: the
        /// error that shows the path with it quoted, which is what was meant.
        func quotedID() -> JSONPathError? {
            guard let end = bytes[position...].firstIndex(of: UInt8(ascii: "]")), end > position else { return nil }
            let raw = bytes[position..<end]
            let plain = raw.allSatisfy { $0 > 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "[") && $0 < 0x7F }
            guard plain else { return nil }
            let before = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<position]), as: UTF8.self)
            let id = String(decoding: UnsafeBufferPointer(rebasing: raw), as: UTF8.self)
            let after = String(decoding: UnsafeBufferPointer(rebasing: bytes[end...]), as: UTF8.self)
            return fail("an id that is not a number, true, false or null is quoted, as in \(before)\"\(id)\"\(after)")
        }

        mutating func index() throws(JSONPathError) -> Int {
            let start = position
            if bytes[position] == UInt8(ascii: "0"), position + 1 < bytes.count, JSONParser.isDigit(bytes[position + 1]) {
                throw fail("leading zeros are not allowed in an index")
            }
            var value = 0
            while let byte = peek(), JSONParser.isDigit(byte) {
                let (shifted, shiftOverflow) = value.multipliedReportingOverflow(by: 10)
                let (next, addOverflow) = shifted.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
                guard !shiftOverflow, !addOverflow else {
                    position = start
                    throw fail("index is too large")
                }
                value = next
                position += 1
            }
            return value
        }
    }
}
