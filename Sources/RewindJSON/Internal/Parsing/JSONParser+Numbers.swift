extension JSONParser {
    /// Parses a number: `.int` when it has no fraction or exponent and fits, `.double` otherwise.
    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        let isNegative = peek() == UInt8(ascii: "-")
        if isNegative { position += 1 }
        guard let first = peek(), Self.isDigit(first) else {
            throw error("expected a digit after '-'")
        }
        // Accumulated with the number's sign, so that Int.min fits; overflow falls back to Double.
        var integer = 0
        var overflowed = false
        if first == UInt8(ascii: "0") {
            position += 1
            if let next = peek(), Self.isDigit(next) {
                throw error("leading zeros are not allowed", at: position - 1)
            }
        } else {
            while let byte = peek(), Self.isDigit(byte) {
                let digit = Int(byte - UInt8(ascii: "0"))
                if !overflowed {
                    let (shifted, shiftOverflow) = integer.multipliedReportingOverflow(by: 10)
                    let (next, addOverflow) =
                        isNegative
                        ? shifted.subtractingReportingOverflow(digit)
                        : shifted.addingReportingOverflow(digit)
                    overflowed = shiftOverflow || addOverflow
                    integer = next
                }
                position += 1
            }
        }
        var isInteger = true
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            try skipDigits(after: "'.'")
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            try skipDigits(after: "the exponent marker")
        }
        if isInteger && !overflowed {
            return .int(integer)
        }
        return .double(try Self.double(from: UnsafeBufferPointer(rebasing: bytes[start..<position]), at: start))
    }

    mutating func skipDigits(after context: String) throws(JSONParseError) {
        guard let first = peek(), Self.isDigit(first) else {
            throw error("expected a digit after \(context)")
        }
        while let byte = peek(), Self.isDigit(byte) {
            position += 1
        }
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Converts number text already checked against the JSON grammar.
    static func double(from text: UnsafeBufferPointer<UInt8>, at offset: Int) throws(JSONParseError) -> Double {
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else {
            throw JSONParseError(offset: offset, reason: "number is too large for a double")
        }
        return value
    }

    /// Reads a number from text that must be exactly one JSON number, such as a `Decimal`'s description.
    static func number(from text: String) -> JSONValue? {
        var text = text
        return text.withUTF8 { bytes in
            var parser = JSONParser(bytes: bytes)
            guard let value = try? parser.parseNumber(), parser.position == bytes.count else { return nil }
            return value
        }
    }
}
