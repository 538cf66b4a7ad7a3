extension JSONParser {
    /// Parses the string starting at the opening quote under `position`.
    mutating func parseString() throws(JSONParseError) -> String {
        let quote = position
        position += 1
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                // Validated as it was scanned, so decoding never has to repair anything.
                let string = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                position += 1
                return string
            }
            if byte == UInt8(ascii: "\\") {
                return try parseEscapedString(from: start, quote: quote)
            }
            try skipStringByte(byte)
        }
        throw error("unterminated string", at: quote)
    }

    /// Steps over one unescaped character of a string, checking it may appear there.
    mutating func skipStringByte(_ byte: UInt8) throws(JSONParseError) {
        if byte < 0x20 {
            throw error("unescaped control character in string")
        }
        if byte < 0x80 {
            position += 1
            return
        }
        guard let length = UTF8Bytes.sequenceLength(in: bytes, at: position) else {
            throw error("invalid UTF-8 in string")
        }
        position += length
    }

    /// The slow path for strings with escapes: the bytes are rebuilt in `scratch`.
    mutating func parseEscapedString(from start: Int, quote: Int) throws(JSONParseError) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape()
            default:
                let characterStart = position
                try skipStringByte(byte)
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[characterStart..<position]))
            }
        }
        throw error("unterminated string", at: quote)
    }

    /// Decodes the escape under `position` into `scratch`.
    mutating func parseEscape() throws(JSONParseError) {
        let escapeStart = position
        position += 1
        guard let letter = peek() else { throw error("unterminated string") }
        position += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(letter)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try parseHexQuad()
            var scalarValue = UInt32(unit)
            switch unit {
            case 0xD800...0xDBFF:
                guard bytes.count - position >= 2,
                    bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
                else { throw error("unpaired surrogate in \\u escape", at: escapeStart) }
                position += 2
                let low = try parseHexQuad()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("unpaired surrogate in \\u escape", at: escapeStart)
                }
                scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            case 0xDC00...0xDFFF:
                throw error("unpaired surrogate in \\u escape", at: escapeStart)
            default:
                break
            }
            // Surrogates were excluded above, so every remaining value is a scalar.
            guard let scalar = Unicode.Scalar(scalarValue) else {
                throw error("invalid \\u escape", at: escapeStart)
            }
            UTF8.encode(scalar) { scratch.append($0) }
        default:
            throw error("invalid escape sequence", at: escapeStart)
        }
    }

    /// Reads the four hex digits of a `\u` escape.
    mutating func parseHexQuad() throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw error("unterminated string") }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("expected four hex digits after \\u")
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }
}
