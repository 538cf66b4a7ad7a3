extension JSONValue {
    /// The canonical UTF-8 text of the value.
    ///
    /// No whitespace; object keys in UTF-8 byte order; strings escape only `"`, `\` and
    /// control characters (`\b \f \n \r \t` by name, the rest as `\u00xx`), leaving `/` and
    /// non-ASCII as they are; integers in decimal; doubles in Swift's shortest round-trip form
    /// (`0.1`, `3.0`, `1e-07`, `1.5e+20`). JSON has no spelling for infinities or NaN, which
    /// `JSONValueEncoder` refuses to produce; should one be built by hand it is written `null`.
    public var canonicalBytes: [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(256)
        canonicalBytes(into: &buffer)
        return buffer
    }

    /// The canonical text of the value; see `canonicalBytes`.
    public var canonicalString: String {
        String(decoding: canonicalBytes, as: UTF8.self)
    }

    /// Appends the canonical UTF-8 text of the value to `buffer`; see `canonicalBytes`.
    public func canonicalBytes(into buffer: inout [UInt8]) {
        switch self {
        case .null:
            Self.append("null", to: &buffer)
        case .bool(let value):
            Self.append(value ? "true" : "false", to: &buffer)
        case .int(let value):
            Self.appendDecimal(value, to: &buffer)
        case .double(let value):
            if value.isFinite {
                Self.append(value.description, to: &buffer)
            } else {
                Self.append("null", to: &buffer)
            }
        case .string(let value):
            Self.appendQuoted(value, to: &buffer)
        case .array(let elements):
            buffer.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { buffer.append(UInt8(ascii: ",")) }
                element.canonicalBytes(into: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let object):
            buffer.append(UInt8(ascii: "{"))
            for index in object.keys.indices {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                Self.appendQuoted(object.keys[index], to: &buffer)
                buffer.append(UInt8(ascii: ":"))
                object.values[index].canonicalBytes(into: &buffer)
            }
            buffer.append(UInt8(ascii: "}"))
        }
    }

    private static func append(_ text: String, to buffer: inout [UInt8]) {
        UTF8Bytes.withBytes(of: text) { buffer.append(contentsOf: $0) }
    }

    static func appendDecimal(_ value: Int, to buffer: inout [UInt8]) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        // The magnitude as unsigned, so that Int.min needs no special case.
        var magnitude = value.magnitude
        let start = buffer.count
        repeat {
            buffer.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        buffer[start...].reverse()
    }

    /// Appends `text` as a JSON string, copying runs that need no escaping in bulk.
    static func appendQuoted(_ text: String, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        UTF8Bytes.withBytes(of: text) { bytes in
            var runStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                buffer.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): buffer.append(byte)
                case 0x08: buffer.append(UInt8(ascii: "b"))
                case 0x0C: buffer.append(UInt8(ascii: "f"))
                case 0x0A: buffer.append(UInt8(ascii: "n"))
                case 0x0D: buffer.append(UInt8(ascii: "r"))
                case 0x09: buffer.append(UInt8(ascii: "t"))
                default:
                    buffer.append(UInt8(ascii: "u"))
                    buffer.append(UInt8(ascii: "0"))
                    buffer.append(UInt8(ascii: "0"))
                    buffer.append(UInt8(ascii: "0") + (byte >> 4))
                    let low = byte & 0x0F
                    buffer.append(low < 10 ? UInt8(ascii: "0") + low : UInt8(ascii: "a") + low - 10)
                }
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        buffer.append(UInt8(ascii: "\""))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The canonical text, which also makes test failures readable.
    public var description: String { canonicalString }
}
