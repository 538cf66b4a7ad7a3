import RewindJSON
import RewindRendering

/// Formats replay outcomes: a summary line per session, and for a failure the step, the action
/// and the field-level diff recorded → replayed. The log's path and the recorded strings
/// quoted are escaped for a terminal (``TerminalText``).
public enum ReplayReport {
    /// `LOG #2 (name)`, as each line names the session.
    static func name(_ replay: SessionReplay) -> String {
        // A trimmed session says so wherever it is named.
        TerminalText.escaped("\(replay.log) \(replay.session.label)" + (replay.session.notKeptText.map { " [\($0)]" } ?? ""))
    }

    /// `step 8 (login  didTapLogin)`.
    public static func step(_ step: Int, _ action: String, _ origin: String) -> String {
        "step \(step) (\(TerminalText.escaped(origin))  \(TerminalText.escaped(action)))"
    }

    public static func lines(_ replay: SessionReplay, style: TextStyle) -> [String] {
        let name = name(replay)
        switch replay.outcome {
        case .matched:
            // A step that read a secret's characters was neither matched nor diverged: the line
            // says "every verifiable state" then, and names those steps.
            let unverifiable = replay.unverifiableSteps
            var line = "ok      \(name): \(replay.replayedSteps) steps replayed, every \(unverifiable.isEmpty ? "" : "verifiable ")state matches"
            var notes: [String] = []
            if replay.session.notKept != nil {
                notes.append("from the first kept state, step \(replay.session.firstKeptStep)")
            }
            if let schema = replay.migratedToSchema {
                notes.append("migrated from schema \(replay.session.schemaVersion) to \(schema)")
            }
            if replay.redactedSteps > 0 {
                notes.append("\(replay.redactedSteps) with redacted fields compared as placeholders")
            }
            if !unverifiable.isEmpty {
                let steps = unverifiable.map(String.init).joined(separator: ", ")
                notes.append(
                    unverifiable.count == 1
                        ? "1 unverifiable: step \(steps) reads more of a secret than its length"
                        : "\(unverifiable.count) unverifiable: steps \(steps) read more of a secret than its length")
            }
            if !notes.isEmpty { line += " (" + notes.joined(separator: "; ") + ")" }
            return [line]
        case let .diverged(step, action, origin, changes):
            return [style.removed("FAILED") + "  \(name): diverged at \(Self.step(step, action, origin)); recorded → replayed:"]
                + DiffRenderer(style: style).render(changes).map { "  " + $0 }
        case let .nondeterministic(step, action, origin, changes):
            return [
                style.removed("FAILED")
                    + "  \(name): nondeterministic at \(Self.step(step, action, origin)): the same state and action gave two different states, so the reducer reads the clock, a UUID, randomness or unordered iteration:"
            ]
                + DiffRenderer(style: style).render(changes).map { "  " + $0 }
        case let .readsClock(step, action, origin, changes, paths):
            let fields = TerminalText.escaped(paths.map(\.description).joined(separator: ", "))
            return [
                style.removed("FAILED")
                    + "  \(name): nondeterministic at \(Self.step(step, action, origin)): the replay put the current time in \(fields), so the reducer reads the clock; recorded → replayed:"
            ]
                + DiffRenderer(style: style).render(changes).map { "  " + $0 }
        case let .behaviourChanged(step, action, origin, changes):
            return [style.removed("FAILED") + "  \(name): \(Self.step(step, action, origin)) \(behaviour(changes))"]
        case let .refused(step, reason):
            return [style.removed("FAILED") + "  \(name): cannot replay step \(step): \(TerminalText.escaped(reason))"]
        }
    }

    /// `no longer starts "auth.login"; now also sends retry`, escaped for a terminal.
    static func behaviour(_ changes: [BehaviourChange]) -> String {
        TerminalText.escaped(changes.map(\.description).joined(separator: "; "))
    }

    /// What `replay --update` did with a session: what it accepted into the recording, or why
    /// it left the recording alone.
    public static func updateLines(_ replay: SessionReplay, rewritten: Bool, style: TextStyle) -> [String] {
        let name = name(replay)
        guard rewritten else { return lines(replay, style: style) }
        let schema = replay.migratedToSchema == nil ? "" : ", moved to the flow's current schema"
        switch replay.outcome {
        case let .diverged(step, action, origin, changes):
            return [
                style.added("updated")
                    + " \(name): accepted the current reducer's states from \(Self.step(step, action, origin))\(schema); recorded → now:"
            ]
                + DiffRenderer(style: style).render(changes).map { "  " + $0 }
        case let .behaviourChanged(step, action, origin, changes):
            return [
                style.added("updated")
                    + " \(name): accepted what the current reducer asks for from \(Self.step(step, action, origin))\(schema): \(behaviour(changes))"
            ]
        case .matched, .nondeterministic, .readsClock, .refused:
            return [style.added("updated") + " \(name): \(replay.replayedSteps) steps replayed, every state matches\(schema)"]
        }
    }

    /// `--json`: one object per session.
    public static func json(_ replay: SessionReplay) -> JSONValue {
        var object = JSONObject([
            ("log", .string(replay.log)),
            ("session", .int(replay.session.number)),
            ("replayed_steps", .int(replay.replayedSteps)),
            ("redacted_steps", .int(replay.redactedSteps)),
            ("unverifiable_steps", .array(replay.unverifiableSteps.map(JSONValue.int))),
        ])
        object["name"] = replay.session.name.map(JSONValue.string)
        switch replay.outcome {
        case .matched:
            object["outcome"] = "matched"
        case let .diverged(step, action, origin, changes), let .nondeterministic(step, action, origin, changes):
            object["outcome"] = replay.outcome.isNondeterministic ? "nondeterministic" : "diverged"
            object["step"] = .int(step)
            object["action_type"] = .string(action)
            object["origin"] = .string(origin)
            object["changes"] = .array(changes.map(\.jsonForm))
        case let .readsClock(step, action, origin, changes, paths):
            object["outcome"] = "nondeterministic"
            object["evidence"] = "current_time"
            object["step"] = .int(step)
            object["action_type"] = .string(action)
            object["origin"] = .string(origin)
            object["changes"] = .array(changes.map(\.jsonForm))
            object["paths"] = .array(paths.map { .string($0.description) })
        case let .behaviourChanged(step, action, origin, changes):
            object["outcome"] = "behaviour_changed"
            object["step"] = .int(step)
            object["action_type"] = .string(action)
            object["origin"] = .string(origin)
            object["behaviour"] = .array(changes.map(\.jsonForm))
        case let .refused(step, reason):
            object["outcome"] = "refused"
            object["step"] = .int(step)
            object["reason"] = .string(reason)
        }
        return .object(object)
    }
}

extension SessionReplay.Outcome {
    var isNondeterministic: Bool {
        if case .nondeterministic = self { true } else { false }
    }
}
