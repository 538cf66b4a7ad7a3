/// Text made safe for XML 1.0: recorded strings (session names, values in a diff) are
/// untrusted, so every one passes through here before it reaches a report.
enum XMLText {
    /// `text` as element content: `&`, `<` and `>` escaped (`>` for `]]>`), and the
    /// characters XML 1.0 forbids replaced.
    static func content(_ text: String) -> String {
        escape(text, attribute: false)
    }

    /// `text` as a double-quoted attribute value: also `"`, and tab, newline and carriage
    /// return as references, which a parser would otherwise normalize to spaces.
    static func attribute(_ text: String) -> String {
        escape(text, attribute: true)
    }

    private static func escape(_ text: String, attribute: Bool) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where attribute: result += "&quot;"
            case "\t" where attribute: result += "&#9;"
            case "\n" where attribute: result += "&#10;"
            case "\r": result += "&#13;"
            default: result.unicodeScalars.append(isAllowed(scalar) ? scalar : replacement)
            }
        }
        return result
    }

    /// U+FFFD, the replacement character, for a forbidden character: no reference to one
    /// (`&#27;`) is allowed either.
    private static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// XML 1.0's `Char`: tab, newline, carriage return, and U+0020 on, less U+FFFE and U+FFFF
    /// (Swift's scalars are never surrogates).
    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: true
        case 0x20...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
