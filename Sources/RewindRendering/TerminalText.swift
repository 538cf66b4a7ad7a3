import RewindJSON

/// Recorded text made safe to print on a terminal.
///
/// A log's strings (session and flow names, action names and origins, the strings and keys of
/// states and actions, paths) come from the app that recorded it, or from whoever handed over
/// the file: printed raw, `ESC [ 2 J` would clear the screen, `ESC ] 0 ; … BEL` retitle the
/// window, and U+202E (right-to-left override) turn a value around as it is read. Every place
/// that puts such a string into text for a terminal passes it through here; HTML (the report),
/// XML (`--junit`) and the JSON of `export` have their own escaping.
///
/// What is escaped: the C0 controls (U+0000–U+001F, newline and tab included: a recorded
/// string's newline would otherwise pass for a new line of output), DEL (U+007F), the C1
/// controls (U+0080–U+009F: U+009B acts as `ESC [` on terminals that read 8-bit controls) and
/// the bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A–U+202E,
/// U+2066–U+2069). Each reads as its JSON escape: `\b \t \n \f \r` by name, any other as
/// `\u` and four lowercase hex digits (`\u001b`, `\u007f`, `\u009b`, `\u202e`). A value
/// printed as JSON (`"…"`) therefore stays valid JSON, the form `find --where` reads, and
/// JSON text passed through here keeps its meaning. Everything else, a backslash included, is
/// left as it is: the text is for reading, and `--json` has every string exactly.
public enum TerminalText {
    /// `text` with every character a terminal could act on written as its escape; the same
    /// string when it has none (the common case, checked a byte at a time). Escaping twice
    /// changes nothing more.
    public static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: mayStartEscaped) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            guard isEscaped(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\u{08}": result += "\\b"
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\u{0C}": result += "\\f"
            case "\r": result += "\\r"
            default:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return result
    }

    /// The compact JSON of `value` as `--json` prints it: canonical, then escaped. JSON
    /// escapes the C0 controls itself; DEL, C1 and bidirectional characters may stand raw in
    /// a JSON string, and escaped they decode to the same string, so the output is still the
    /// same JSON, and harmless when it lands on a terminal.
    public static func json(_ value: JSONValue) -> String {
        escaped(value.canonicalString)
    }

    /// Whether `scalar` is shown as an escape: a control or a bidirectional formatting
    /// character. All are in the Basic Multilingual Plane, so four hex digits always suffice.
    public static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Whether a UTF-8 byte may begin an escaped character: a C0 control or DEL, or the lead
    /// byte of U+0080–U+009F (0xC2), U+061C (0xD8) or U+200E–U+2069 (0xE2).
    private static func mayStartEscaped(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2
    }
}
