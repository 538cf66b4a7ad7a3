import RewindJSON

/// Formats a JSON value for people: indented, keys sorted, a redacted secret as
/// `<redacted N>`, keys and scalars escaped for a terminal (``TerminalText``).
public struct PrettyPrinter: Sendable {
    public var indent = "  "
    public var style: TextStyle

    public init(style: TextStyle = .plain) {
        self.style = style
    }

    /// The value as lines.
    public func lines(_ value: JSONValue) -> [String] {
        var lines: [String] = []
        write(value, prefix: "", indentation: "", into: &lines)
        return lines
    }

    private func write(_ value: JSONValue, prefix: String, indentation: String, into lines: inout [String]) {
        if let length = ValueSummary.redactedLength(value) {
            lines.append(indentation + prefix + style.dim("<redacted \(length)>"))
            return
        }
        switch value {
        case let .object(object) where !object.isEmpty:
            lines.append(indentation + prefix + "{")
            for (key, child) in object {
                let name = TerminalText.escaped(JSONPath([.key(key)]).description)
                write(child, prefix: style.path(name) + ": ", indentation: indentation + indent, into: &lines)
            }
            lines.append(indentation + "}")
        case let .array(elements) where !elements.isEmpty:
            lines.append(indentation + prefix + "[")
            for element in elements {
                write(element, prefix: "", indentation: indentation + indent, into: &lines)
            }
            lines.append(indentation + "]")
        default:
            lines.append(indentation + prefix + TerminalText.escaped(value.canonicalString))
        }
    }
}
