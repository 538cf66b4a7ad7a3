extension JSONPath {
    /// Reads a path in the syntax of `description`, such as `photos[3].title` or `["odd key"][0]`.
    ///
    /// A leading `.` is accepted (`.login.username`); `.` alone and the empty string are the root.
    public init(parsing text: String) throws(JSONPathError) {
        var text = text
        let original = text
        let result = text.withUTF8 { bytes in
            Result { () throws(JSONPathError) in
                try Self.parseComponents(bytes, text: original)
            }
        }
        self.init(try result.get())
    }

    private static func parseComponents(_ bytes: UnsafeBufferPointer<UInt8>, text: String) throws(JSONPathError) -> [Component] {
        var components: [Component] = []
        var position = 0
        func fail(_ reason: String) -> JSONPathError {
            JSONPathError(text: text, offset: position, reason: reason)
        }
        if bytes.first == UInt8(ascii: ".") {
            position = 1
            if bytes.count == 1 { return [] }
            if bytes[1] != UInt8(ascii: "[") { components.append(.key(try identifier())) }
        } else if let first = bytes.first, first != UInt8(ascii: "[") {
            components.append(.key(try identifier()))
        }
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "."):
                position += 1
                components.append(.key(try identifier()))
            case UInt8(ascii: "["):
                position += 1
                components.append(try bracketed())
            case let byte:
                throw fail("unexpected \(JSONParser.describe(byte)), expected '.' or '['")
            }
        }
        return components

        func identifier() throws(JSONPathError) -> String {
            let start = position
            guard position < bytes.count, isIdentifierStart(bytes[position]) else {
                throw fail("expected a key")
            }
            while position < bytes.count, isIdentifierStart(bytes[position]) || JSONParser.isDigit(bytes[position]) {
                position += 1
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        }

        func bracketed() throws(JSONPathError) -> Component {
            let component: Component
            switch position < bytes.count ? bytes[position] : nil {
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
                throw fail("expected an index or a quoted key after '['")
            }
            guard position < bytes.count, bytes[position] == UInt8(ascii: "]") else {
                throw fail("expected ']'")
            }
            position += 1
            return component
        }

        func index() throws(JSONPathError) -> Int {
            if bytes[position] == UInt8(ascii: "0"), position + 1 < bytes.count, JSONParser.isDigit(bytes[position + 1]) {
                throw fail("leading zeros are not allowed in an index")
            }
            let start = position
            var value = 0
            while position < bytes.count, JSONParser.isDigit(bytes[position]) {
                let (shifted, shiftOverflow) = value.multipliedReportingOverflow(by: 10)
                let (next, addOverflow) = shifted.addingReportingOverflow(Int(bytes[position] - UInt8(ascii: "0")))
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
