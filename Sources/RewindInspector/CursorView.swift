import RewindJSON
import RewindLog

/// Formats what `rewind step` shows of the current step: a header naming the session and the
/// step, the action line as the timeline prints it, and each change in full.
///
/// ```
/// #2 (login-invalid-then-fixed): step 8 of 20
///     8   +1.580s  login  didTapLogin  errorMessage + "Please correct the hig…, …
///   + errorMessage: "Please correct the highlighted fields."
///   + isPasswordValid: false
///   + isUsernameValid: false
/// ```
public struct CursorView: Sendable {
    public var style: TextStyle

    public init(style: TextStyle = .plain) {
        self.style = style
    }

    /// The view of the cursor's step. A step the log cannot give back is reported on a line of
    /// its own, after the header, rather than thrown: the view is always shown.
    public func lines(of cursor: TimeTravelCursor) -> [String] {
        var lines = [header(of: cursor)]
        do {
            lines += try body(of: cursor)
        } catch {
            lines.append("cannot read step \(cursor.step): \(error)")
        }
        return lines
    }

    /// `#2 (login-invalid-then-fixed): step 8 of 20`.
    public func header(of cursor: TimeTravelCursor) -> String {
        style.heading("\(cursor.session.label): step \(cursor.step) of \(cursor.lastStep)")
    }

    private func body(of cursor: TimeTravelCursor) throws(LogError) -> [String] {
        guard let entry = try cursor.entry() else {
            let step = "0".leftPadded(to: 5), offset = "+0.000s".leftPadded(to: 9)
            return ["\(style.dim(step)) \(style.dim(offset))  \(style.dim("(initial state)"))"]
        }
        var lines = TimelineRenderer(style: style).render([entry])
        if !entry.changes.isEmpty {
            lines += DiffRenderer(style: style).render(entry.changes).map { "  " + $0 }
        }
        return lines
    }
}
