import RewindJSON

/// ANSI colour for terminal output, or none.
///
/// Colour goes only to a terminal, and never when `NO_COLOR` is set: the CLI decides, and
/// hands the inspector `.plain` or `.ansi`. The text given is put in as it is: a recorded
/// string is escaped first (``TerminalText``), before its width is counted.
public struct TextStyle: Sendable {
    public let isColored: Bool

    /// No escape codes: for pipes, files, tests and `NO_COLOR`.
    public static let plain = TextStyle(isColored: false)
    /// ANSI escape codes, for a terminal.
    public static let ansi = TextStyle(isColored: true)

    public func dim(_ text: String) -> String { wrap(text, "2") }
    public func origin(_ text: String) -> String { wrap(text, "36") }
    public func action(_ text: String) -> String { wrap(text, "1") }
    public func path(_ text: String) -> String { wrap(text, "33") }
    /// A path into a recorded state, whose keys are recorded strings: escaped, then coloured.
    public func path(_ path: JSONPath) -> String { self.path(TerminalText.escaped(path.description)) }
    public func output(_ text: String) -> String { wrap(text, "35") }
    public func heading(_ text: String) -> String { wrap(text, "1;4") }
    public func added(_ text: String) -> String { wrap(text, "32") }
    public func removed(_ text: String) -> String { wrap(text, "31") }
    public func changed(_ text: String) -> String { wrap(text, "33") }

    private func wrap(_ text: String, _ code: String) -> String {
        isColored && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
