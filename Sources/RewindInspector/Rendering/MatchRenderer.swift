import RewindJSON
import RewindRendering

/// Formats the steps `rewind find` reports, one line each, as text or JSON, recorded strings
/// escaped for a terminal (``TerminalText``).
public struct MatchRenderer: Sendable {
    public var style: TextStyle

    public init(style: TextStyle = .plain) {
        self.style = style
    }

    /// `#2 login-invalid-then-fixed  step 8  didTapLogin`; step 0 reads `(initial)`.
    public func text(_ match: StateMatch) -> String {
        let session = match.session.name.map { "#\(match.session.number) \(TerminalText.escaped($0))" } ?? "#\(match.session.number)"
        let action = match.action.map(TerminalText.escaped) ?? HistoryRenderer.initialLabel
        return "\(session)  \(style.dim("step \(match.step)"))  \(style.action(action))"
    }

    /// `{"action":"didTapLogin","name":"login-invalid-then-fixed","session":2,"step":8}`;
    /// an unnamed session has no `name`, step 0 no `action`.
    public func json(_ match: StateMatch) -> String {
        var fields: [(String, JSONValue)] = [("session", .int(match.session.number)), ("step", .int(match.step))]
        if let name = match.session.name { fields.append(("name", .string(name))) }
        if let action = match.action { fields.append(("action", .string(action))) }
        return TerminalText.json(.object(JSONObject(fields)))
    }
}
