import Foundation
import RewindJSON
import RewindLog
import RewindRendering

/// What `rewind show` prints: one step's action and the state after it, or one value of it.
public struct StepView: Sendable {
    public let session: SessionSummary
    public let step: Int
    /// The step's event; nil at step 0.
    public let event: LoggedEvent?
    /// The whole state, or the value at `path` when one was asked for.
    public let value: JSONValue
    public let path: JSONPath?
    /// For a path with `[*]`, every place it names with its value (and `value` is an array of
    /// those values).
    public var matches: [JSONPathMatch]? = nil

    /// The lines for people, recorded strings escaped for a terminal (``TerminalText``).
    public func lines(style: TextStyle) -> [String] {
        var header = "\(TerminalText.escaped(session.label)) step \(step) of \(session.lastStep)"
        if let text = session.notKeptText { header += " [\(text)]" }
        if let event {
            header += String(format: ", +%.3fs", event.time.timeIntervalSince(session.startedAt))
        }
        var lines = [style.heading(header)]
        if let report = session.report { lines.append(style.dim("reported \(TerminalText.escaped(report.text))")) }
        if let event {
            let payload = ValueSummary.payload(of: event.action, name: event.actionName)
            let name = TerminalText.escaped(payload.isEmpty ? event.actionName : "\(event.actionName)(\(payload))")
            var action = "action: \(TerminalText.escaped(event.origin))  \(style.action(name))"
            if let cause = event.cause { action += style.dim("  caused by step \(cause)") }
            lines.append(action)
            for output in event.outputs {
                lines.append("output: \(TerminalText.escaped(ValueSummary.payload(of: output, name: "output")))")
            }
            // What else the step asked for, where its session recorded it (log format 5).
            for name in event.effects?.runs ?? [] {
                lines.append("starts: " + TerminalText.escaped(name.map { JSONValue.string($0).canonicalString } ?? "an unnamed effect"))
            }
            for sent in event.effects?.sends ?? [] {
                lines.append("sends: " + TerminalText.escaped(ValueSummary.action(sent)))
            }
        } else {
            lines.append("action: (none: the initial state)")
        }
        let printer = PrettyPrinter(style: style)
        if let matches {
            if matches.isEmpty { lines.append("\(style.path(path ?? .root)): " + style.dim("(names nothing here)")) }
            for match in matches {
                let body = printer.lines(match.value)
                lines.append("\(style.path(match.path)): " + body[0])
                lines += body.dropFirst()
            }
            return lines
        }
        let body = printer.lines(value)
        lines.append(path.map { "\(style.path($0)): " + body[0] } ?? "state: " + body[0])
        lines += body.dropFirst()
        return lines
    }

    /// The `--json` form: `{"session", "step", "action", "state"}`, or `"path"` and `"value"`
    /// instead of `"state"`, or for a path with `[*]` `"path"` and `"matches"` (each a `"path"`
    /// and a `"value"`).
    public var json: JSONValue {
        var object = JSONObject([("session", .int(session.number)), ("step", .int(step))])
        object["action"] = event?.action
        object["action_type"] = event.map { .string($0.actionName) }
        object["origin"] = event.map { .string($0.origin) }
        object["effects"] = event?.effects.map { $0.json ?? .null }
        if let path, let matches {
            object["path"] = .string(path.description)
            object["matches"] = .array(matches.map { ["path": .string($0.path.description), "value": $0.value] })
        } else if let path {
            object["path"] = .string(path.description)
            object["value"] = value
        } else {
            object["state"] = value
        }
        return .object(object)
    }
}
