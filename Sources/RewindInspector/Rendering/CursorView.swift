import RewindJSON
import RewindLog
import RewindRendering

/// Formats what `rewind step` shows of the current step: a header naming the session and the
/// step, the action line as the timeline prints it, and each change in full (at step 0, the
/// initial state whole); and, on a terminal, the whole screen around it.
///
/// ```
/// #2 (login-invalid-then-fixed): step 8 of 20
///     8   +1.580s  login  didTapLogin  errorMessage + "Please correct the highlighted fields.", …
///   + errorMessage: "Please correct the highlighted fields."
///   + isPasswordValid: false
///   + isUsernameValid: false
/// ```
public struct CursorView: Sendable {
    public var style: TextStyle
    /// The terminal's width: the action line gives the action what the step, time and origin
    /// leave of it, its payload summarised to fit (48 characters otherwise). Nil off a terminal.
    public var columns: Int?

    public init(style: TextStyle = .plain, columns: Int? = nil) {
        self.style = style
        self.columns = columns
    }

    /// The view of the cursor's step. A step the log cannot give back is reported on a line of
    /// its own, after the header, rather than thrown: the view is always shown.
    public func lines(of cursor: TimeTravelCursor) -> [String] {
        var lines = [header(of: cursor)]
        do {
            lines += try body(of: cursor)
        } catch {
            lines.append("cannot read step \(cursor.step): \(TerminalText.escaped(error.description))")
        }
        return lines
    }

    /// `#2 (login-invalid-then-fixed): step 8 of 20`.
    public func header(of cursor: TimeTravelCursor) -> String {
        style.heading(
            "\(TerminalText.escaped(cursor.session.label)): step \(cursor.step) of \(cursor.lastStep)"
                + (cursor.session.notKeptText.map { " [\($0)]" } ?? ""))
    }

    private func body(of cursor: TimeTravelCursor) throws(LogError) -> [String] {
        guard let entry = try cursor.entry() else {
            // Step 0 changed nothing: what there is to see is the state the session starts from.
            let step = "0".leftPadded(to: 5), offset = "+0.000s".leftPadded(to: 9)
            let state = PrettyPrinter(style: style).lines(try cursor.state()).map { "  " + $0 }
            return ["\(style.dim(step)) \(style.dim(offset))  \(style.dim("(initial state)"))"] + state
        }
        // One line has no column to keep: off a terminal the action is never cut; on one, it
        // is given what the step (5), the time (9), the origin and the spaces between leave.
        var renderer = TimelineRenderer(style: style)
        renderer.actionWidth = .max
        if let columns {
            let width = max(64, columns - 19 - TerminalText.escaped(entry.origin).count)
            renderer.actionWidth = width
            renderer.payloadLimit = max(renderer.payloadLimit, width - entry.name.count - 2)
        }
        var lines = renderer.render([entry])
        if !entry.changes.isEmpty {
            lines += DiffRenderer(style: style).render(entry.changes).map { "  " + $0 }
        }
        return lines
    }

    /// The whole terminal screen: the step's `view`, the last command's output (`notes`) after
    /// an empty line, and the `bottom` line (a prompt or the keys) after another.
    ///
    /// Given the terminal's size, output too long for the screen (counting the rows that long
    /// lines wrap onto) is cut and ends with a line saying how much is left out, so that the
    /// step's header stays in sight.
    public func screen(view: [String], notes: [String], bottom: String, size: (rows: Int, columns: Int)?) -> [String] {
        guard let size, !notes.isEmpty, size.columns > 0 else {
            return view + (notes.isEmpty ? [] : [""] + notes) + ["", bottom]
        }
        func height(_ line: String) -> Int { max(1, (Self.visibleWidth(line) + size.columns - 1) / size.columns) }
        // The empty lines before the output and before the bottom line take a row each.
        let room = size.rows - view.map(height).reduce(0, +) - height(bottom) - 2
        guard notes.map(height).reduce(0, +) > room else { return view + [""] + notes + ["", bottom] }
        var kept: [String] = [], used = 0
        for line in notes {
            // One row stays for the line that says how much is left out.
            guard used + height(line) <= room - 1 else { break }
            kept.append(line)
            used += height(line)
        }
        let more = style.dim("… \(notes.count - kept.count) more lines (show PATH shows a part; piped commands print everything)")
        return view + [""] + kept + [more, "", bottom]
    }

    /// How many columns `line` takes: its characters, less ANSI colour sequences.
    static func visibleWidth(_ line: String) -> Int {
        var width = 0, inEscape = false
        for character in line {
            if inEscape {
                if character.isLetter { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                width += 1
            }
        }
        return width
    }
}
