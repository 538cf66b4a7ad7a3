/// One key pressed on a terminal in raw mode, decoded from the bytes the terminal sends.
public enum KeyStroke: Sendable, Equatable {
    /// A printable character, such as `n`, `G`, `/` or a space.
    case character(Character)
    case left, right, up, down, home, end
    case enter, backspace, escape
    /// Ctrl-C, which arrives as a byte when the terminal does not turn it into SIGINT.
    case interrupt
    /// Ctrl-D.
    case endOfInput
    /// Anything else: other control keys, function keys, unknown sequences.
    case other

    /// The keys in `bytes`, in order.
    ///
    /// Reads the escape sequences of xterm-like terminals: `ESC [ C` (→), `ESC [ D` (←),
    /// `ESC [ H`, `ESC [ 1 ~`, `ESC [ 7 ~` or `ESC O H` (Home), `ESC [ F`, `ESC [ 4 ~`,
    /// `ESC [ 8 ~` or `ESC O F` (End). An `ESC` that no sequence follows is ``escape``.
    public static func decode(_ bytes: [UInt8]) -> [KeyStroke] {
        var keys: [KeyStroke] = []
        var position = 0
        while position < bytes.count {
            let (key, length) = decodeOne(bytes[position...])
            keys.append(key)
            position += max(1, length)
        }
        return keys
    }

    /// The first key of `bytes` and how many bytes it takes.
    private static func decodeOne(_ bytes: ArraySlice<UInt8>) -> (KeyStroke, Int) {
        let start = bytes.startIndex
        let byte = bytes[start]
        switch byte {
        case 0x1B:
            return escapeSequence(bytes)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x03: return (.interrupt, 1)
        case 0x04: return (.endOfInput, 1)
        case 0x20...0x7E: return (.character(Character(Unicode.Scalar(byte))), 1)
        case 0xC0...0xF7:
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            let end = min(bytes.endIndex, start + length)
            // One scalar of `length` bytes, by the standard library's decoder: `String(validating:as:)`
            // would need macOS 15 and iOS 18.
            var units = bytes[start..<end].makeIterator()
            var decoder = UTF8()
            guard end - start == length, case let .scalarValue(scalar) = decoder.decode(&units) else {
                return (.other, end - start)
            }
            return (.character(Character(scalar)), length)
        default: return (.other, 1)
        }
    }

    /// A key that starts with `ESC`: a CSI (`ESC [`) or SS3 (`ESC O`) sequence, or Escape alone.
    private static func escapeSequence(_ bytes: ArraySlice<UInt8>) -> (KeyStroke, Int) {
        let start = bytes.startIndex
        guard start + 1 < bytes.endIndex else { return (.escape, 1) }
        switch bytes[start + 1] {
        case UInt8(ascii: "O"):
            guard start + 2 < bytes.endIndex else { return (.escape, 1) }
            return (finalKey(bytes[start + 2], parameter: ""), 3)
        case UInt8(ascii: "["):
            // Parameter bytes (digits, `;`), then one final byte.
            var position = start + 2
            while position < bytes.endIndex, (0x30...0x3F).contains(bytes[position]) {
                position += 1
            }
            guard position < bytes.endIndex else { return (.other, position - start) }
            let parameter = String(decoding: bytes[(start + 2)..<position], as: UTF8.self)
            return (finalKey(bytes[position], parameter: parameter), position - start + 1)
        default:
            return (.escape, 1)
        }
    }

    private static func finalKey(_ byte: UInt8, parameter: String) -> KeyStroke {
        switch (byte, parameter) {
        case (UInt8(ascii: "A"), _): .up
        case (UInt8(ascii: "B"), _): .down
        case (UInt8(ascii: "C"), _): .right
        case (UInt8(ascii: "D"), _): .left
        case (UInt8(ascii: "H"), _): .home
        case (UInt8(ascii: "F"), _): .end
        case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): .home
        case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): .end
        default: .other
        }
    }
}
