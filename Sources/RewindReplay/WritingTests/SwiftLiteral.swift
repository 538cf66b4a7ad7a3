/// Swift source text for strings and names taken from a recording, which are untrusted: no
/// character of them can end a literal or a comment, or hide in the file (bidi controls).
enum SwiftLiteral {
    /// `"…"`, with `"`, `\` and every character a reader could not see escaped (`\u{202E}`).
    static func string(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\0": out += "\\0"
            default:
                if isVisible(scalar) {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                }
            }
        }
        return out + "\""
    }

    /// A raw string, `#"…"#`, with as many `#` as it takes; characters a reader could not see
    /// are not allowed in it, so a text that holds one is written as an escaped `"…"`.
    static func raw(_ value: String) -> String {
        guard value.unicodeScalars.allSatisfy({ isVisible($0) && $0 != "\n" && $0 != "\r" }) else { return string(value) }
        var hashes = "#"
        while value.contains("\"" + hashes) || value.contains("\\" + hashes) { hashes += "#" }
        return hashes + "\"" + value + "\"" + hashes
    }

    /// Text for a `//` comment: one line, escaped as a string's inside is.
    static func comment(_ value: String) -> String {
        String(string(value).dropFirst().dropLast())
    }

    static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value >= 0x20 && scalar.value < 0x7F }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned, .spaceSeparator:
            return false
        default:
            return true
        }
    }

    /// Whether `name` can be a Swift identifier (possibly in backticks).
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first.properties.isXIDStart else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isXIDContinue }
    }

    /// A member name after a `.`, in backticks where it is a keyword.
    static func member(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal", "let",
        "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias",
        "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in",
        "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super",
        "throws", "true", "try", "Type",
    ]

    /// A Swift function name made from a session's name: `login-happy` → `loginHappy`.
    static func functionName(_ name: String) -> String {
        var words: [String] = []
        var word = ""
        for scalar in name.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                word.unicodeScalars.append(scalar)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        guard let first = words.first else { return "session" }
        var result = first.prefix(1).lowercased() + first.dropFirst()
        for other in words.dropFirst() { result += other.prefix(1).uppercased() + other.dropFirst() }
        if let lead = result.unicodeScalars.first, ("0"..."9").contains(lead) { result = "session" + result }
        return keywords.contains(result) ? result + "Session" : result
    }
}
