import Foundation
import RewindInspector
import RewindJSON
import RewindLive
import RewindRendering

/// `rewind step --live`: the command lines that send the app of the session being stepped
/// through time, through its `rewind live` inspector, and wait for its answer:
/// `travel [N]`, `resume`, `skip [N]`, `unskip [N]`, `dispatch JSON` (N: the step shown).
struct LiveSteering {
    /// Seconds to wait for an answer unless `--wait` says otherwise: an app answers in
    /// milliseconds, but a busy one (a debugger's breakpoint lifted, a loaded machine) later;
    /// past it, one line asks whether it is connected.
    static let defaultWait = 10

    let client: LiveInspectorClient
    let wait: Duration

    /// The reply to `line` when it is one of these commands; nil when it is not.
    func run(_ line: String, in session: StepSession) async -> [String]? {
        let words = line.split(separator: " ", maxSplits: 1).map(String.init)
        guard let name = words.first, ["travel", "resume", "skip", "unskip", "dispatch"].contains(name) else { return nil }
        let rest = words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : ""
        guard let id = session.cursor.session.id else {
            return ["this session has no id in the log: no app shows it live"]
        }
        let command: LiveCommand
        switch name {
        case "resume":
            command = .resume
        case "dispatch":
            guard !rest.isEmpty else { return ["dispatch needs an action as JSON, like {\"addItem\": {\"title\": \"Milk\"}}"] }
            do {
                command = .dispatch(action: try JSONValue(parsing: rest))
            } catch {
                return ["the action is not JSON: \(TerminalText.escaped(String(describing: error)))"]
            }
        default:
            let step: Int
            if rest.isEmpty {
                step = session.cursor.step
            } else if let number = Int(rest), number >= 0 {
                step = number
            } else {
                return ["\(name) takes a step number from 0, not '\(TerminalText.escaped(rest))'"]
            }
            command = name == "travel" ? .travel(step: step) : name == "skip" ? .skip(step: step) : .unskip(step: step)
        }
        do {
            return [Self.describe(try await client.perform(command, on: id, timeout: wait))]
        } catch {
            return [TerminalText.escaped(error.message)]
        }
    }

    /// The app's answer in one line; what it says is its own, escaped for the terminal.
    static func describe(_ outcome: LiveOutcome) -> String {
        if let refusal = outcome.refusal { return "the app refused: \(TerminalText.escaped(refusal))" }
        let held = outcome.held == 1 ? "1 action held" : "\(outcome.held) actions held"
        if outcome.travelling, let shown = outcome.shownStep {
            return "the app shows step \(shown), paused at step \(outcome.step) (\(held))"
        }
        if outcome.travelling {
            let steps = outcome.skipped.map(String.init).joined(separator: ", ")
            return "the app shows its present without step\(outcome.skipped.count == 1 ? "" : "s") \(steps), paused at step \(outcome.step) (\(held))"
        }
        return "the app is at step \(outcome.step), in its present"
    }
}
