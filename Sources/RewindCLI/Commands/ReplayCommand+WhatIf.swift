import ArgumentParser
import RewindInspector
import RewindJSON
import RewindLog
import RewindRendering
import RewindReplay

/// `replay --skip`: what if some steps had not happened.
extension ReplayCommand {
    func validateWhatIf() throws {
        guard let skip else {
            if onlyUntil != nil { throw ValidationError("--only-until goes with --skip") }
            if newLog != nil { throw ValidationError("--output goes with --skip: it writes the replay without the skipped steps") }
            return
        }
        _ = try StepList(parsing: skip)
        if logs.count != 1 { throw ValidationError("--skip replays one session of one log") }
        for (option, given) in [("--update", update), ("--report", report != nil), ("--junit", junit != nil), ("--shard", shard != nil)] where given {
            throw ValidationError("--skip asks what if; \(option) checks the recording: choose one")
        }
        if let onlyUntil, onlyUntil < 0 { throw ValidationError("--only-until takes a step of the recording, 0 or more") }
    }

    func runWhatIf(_ log: String) throws {
        guard let skip else { return }
        let actions = try RecordedActions(log: log, session: session.session, registry: CommandContext.current.flows)
        let requested: Set<Int>
        switch try StepList(parsing: skip).steps(upTo: actions.session.lastStep) {
        case .success(let steps): requested = steps
        case .failure(let beyond): requested = [beyond.step]
        }
        let unknown = WhatIfReplay.invalidSteps(requested, in: actions)
        if let first = unknown.first {
            throw LogError(
                .noSuchStep, path: log, session: actions.session.number, step: first,
                "session \(actions.session.label) has no step \(first) to skip (it has 1 to \(actions.session.lastStep))")
        }
        if let onlyUntil, onlyUntil > actions.session.lastStep {
            throw LogError(
                .noSuchStep, path: log, session: actions.session.number, step: onlyUntil,
                "session \(actions.session.label) has no step \(onlyUntil) (it has 0 to \(actions.session.lastStep))")
        }
        if let newLog { try LogFiles.checkNewSession(in: newLog, readingFrom: log, what: "the replayed session") }
        let whatIf: WhatIfReplay
        do {
            whatIf = try WhatIfReplay(actions, skipping: requested, until: onlyUntil)
        } catch {
            throw LogError(.invalidArgument, path: log, session: actions.session.number, "\(error)")
        }
        let written = try newLog.map { try whatIf.write(to: $0) }
        if output.json {
            print(TerminalText.json(Self.json(whatIf, written: written)))
            return
        }
        let style = Terminal.style
        print(TerminalText.escaped(Self.headline(whatIf)))
        if !whatIf.isPossible {
            print(style.dim("  note: it replays effect results whose cause no longer starts an effect: an outcome the app may not reach"))
        }
        print(style.heading("recorded step \(whatIf.comparedStep) → without them:"))
        print(DiffRenderer(style: style).render(whatIf.changes).joined(separator: "\n"))
        if !whatIf.behaviourChanges.isEmpty {
            print(style.heading("steps that now ask for other work:"))
            for change in whatIf.behaviourChanges {
                print(
                    "  " + ReplayReport.step(change.step, change.action, change.origin) + " "
                        + TerminalText.escaped(change.changes.map(\.description).joined(separator: "; ")))
            }
        }
        if let written, let newLog { print(TerminalText.escaped("wrote session #\(written) (\(whatIf.sessionName)) to \(newLog)")) }
    }

    /// `what-if #2 (name): without steps 8, 15-18 and the 3 steps they caused (9, 19, 20), 21 of 28 steps replayed`.
    static func headline(_ whatIf: WhatIfReplay) -> String {
        var line = "what-if \(whatIf.actions.session.label): without step\(whatIf.skipped.count == 1 ? "" : "s") \(StepList.describe(whatIf.skipped))"
        if !whatIf.consequences.isEmpty {
            let steps = whatIf.consequences.count == 1 ? "step" : "\(whatIf.consequences.count) steps"
            line += " and the \(steps) \(whatIf.skipped.count == 1 ? "it" : "they") caused (\(StepList.describe(whatIf.consequences)))"
        }
        let window = whatIf.comparedStep
        return line + ", \(whatIf.steps.count) of \(window) step\(window == 1 ? "" : "s") replayed"
    }

    static func json(_ whatIf: WhatIfReplay, written: Int?) -> JSONValue {
        var object = JSONObject([
            ("session", .int(whatIf.actions.session.number)), ("skipped", .array(whatIf.skipped.map(JSONValue.int))),
            ("consequences", .array(whatIf.consequences.map(JSONValue.int))), ("replayed", .int(whatIf.steps.count)),
            ("compared_step", .int(whatIf.comparedStep)), ("possible", .bool(whatIf.isPossible)),
            ("changes", .array(whatIf.changes.map(\.jsonForm))),
            (
                "behaviour",
                .array(
                    whatIf.behaviourChanges.map { change in
                        ["step": .int(change.step), "changes": .array(change.changes.map(\.jsonForm))]
                    })
            ),
        ])
        object["written_session"] = written.map(JSONValue.int)
        return .object(object)
    }
}
