import RewindCore
import RewindJSON
import RewindLog
import RewindRendering

/// One way a replayed step's reducer asks for other work than the recording says it did
/// (DESIGN.md section 16): a divergence as a changed state is, with the same exit code.
public enum BehaviourChange: Sendable, Equatable {
    /// The step no longer starts the work of this name; nil for work recorded without a name.
    case noLongerStarts(String?)
    /// The step now also starts work of this name; nil for work given none.
    case nowAlsoStarts(String?)
    /// The step no longer sends this follow-up action.
    case noLongerSends(JSONValue)
    /// The step now also sends this follow-up action.
    case nowAlsoSends(JSONValue)
    /// The step no longer emits this output.
    case noLongerEmits(JSONValue)
    /// The step now also emits this output.
    case nowAlsoEmits(JSONValue)
    /// The recorded action at step `result` came from work this step started, and the step
    /// now starts none: what a session recorded before format 5, whose steps do not say what
    /// work they started, proves by its cause links.
    case noLongerStartsWork(result: Int)
}

extension BehaviourChange {
    /// What `replayed` asks for that `recorded` does not, and the reverse: outputs always;
    /// follow-up actions and work where the recording holds them (format 5). Each list is
    /// compared as a multiset (the order of the work a step starts is not behaviour a user
    /// sees); a recorded redacted value matches whatever the replay has in its place.
    static func changes(recorded: RecordedBehaviour, replayed: RecordedBehaviour) -> [BehaviourChange] {
        var changes: [BehaviourChange] = []
        if let effects = recorded.effects, let now = replayed.effects {
            let runs = difference(effects.runs, now.runs, matching: ==)
            changes += runs.missing.map(BehaviourChange.noLongerStarts) + runs.extra.map(BehaviourChange.nowAlsoStarts)
            let sends = difference(effects.sends, now.sends, matching: matches)
            changes += sends.missing.map(BehaviourChange.noLongerSends) + sends.extra.map(BehaviourChange.nowAlsoSends)
        }
        let outputs = difference(recorded.outputs, replayed.outputs, matching: matches)
        changes += outputs.missing.map(BehaviourChange.noLongerEmits) + outputs.extra.map(BehaviourChange.nowAlsoEmits)
        return changes
    }

    /// Whether the replayed step asked for anything at all: work, a follow-up action or an
    /// output, the only things that can come back as a recorded action caused by the step.
    static func asksForAnything(_ replayed: RecordedBehaviour) -> Bool {
        !replayed.outputs.isEmpty || !(replayed.effects?.isEmpty ?? true)
    }

    /// The elements of `recorded` that `replayed` lacks and those it has beyond them, each
    /// matched once (quadratic: a step asks for a handful of things).
    private static func difference<Element>(
        _ recorded: [Element], _ replayed: [Element], matching: (Element, Element) -> Bool
    ) -> (missing: [Element], extra: [Element]) {
        var extra = replayed
        var missing: [Element] = []
        for value in recorded {
            if let index = extra.firstIndex(where: { matching(value, $0) }) {
                extra.remove(at: index)
            } else {
                missing.append(value)
            }
        }
        return (missing, extra)
    }

    /// Whether a replayed value is the recorded one, where a recorded secret's placeholder
    /// matches anything: the recording keeps its length alone.
    static func matches(_ recorded: JSONValue, _ replayed: JSONValue) -> Bool {
        if recorded == replayed { return true }
        switch (recorded, replayed) {
        case let (.object(object), _) where object.count == 1 && object[Secret.placeholderKey] != nil:
            return true
        case let (.object(left), .object(right)):
            return left.count == right.count && left.allSatisfy { key, value in right[key].map { matches(value, $0) } ?? false }
        case let (.array(left), .array(right)):
            return left.count == right.count && zip(left, right).allSatisfy(matches)
        default:
            return false
        }
    }
}

extension BehaviourChange: CustomStringConvertible {
    /// `no longer starts "auth.login"`, `now also sends loadThumbnail(7)`, `no longer emits
    /// output userDidLogin(…)`: the recorded strings as they are (a terminal escapes them).
    public var description: String {
        switch self {
        case let .noLongerStarts(name): "no longer starts \(Self.work(name))"
        case let .nowAlsoStarts(name): "now also starts \(Self.work(name))"
        case let .noLongerSends(action): "no longer sends \(ValueSummary.action(action))"
        case let .nowAlsoSends(action): "now also sends \(ValueSummary.action(action))"
        case let .noLongerEmits(output): "no longer emits output \(ValueSummary.action(Self.unwrappedOutput(output)))"
        case let .nowAlsoEmits(output): "now also emits output \(ValueSummary.action(Self.unwrappedOutput(output)))"
        case let .noLongerStartsWork(result): "no longer starts the work that sent step \(result)"
        }
    }

    /// `"auth.login"`, or `an unnamed effect`.
    private static func work(_ name: String?) -> String {
        name.map { JSONValue.string($0).canonicalString } ?? "an unnamed effect"
    }

    /// An output as its screen names it: `userDidLogin(…)` rather than `output(userDidLogin(…))`
    /// (Lasso's `case output(Output)`).
    private static func unwrappedOutput(_ output: JSONValue) -> JSONValue {
        guard case let .object(object) = output, object.count == 1, case let .object(payload)? = object["output"], payload.count == 1,
            let inner = payload["_0"]
        else { return output }
        return inner
    }

    /// `--json`'s form: `{"change":"no_longer_starts","name":"auth.login"}`.
    public var jsonForm: JSONValue {
        switch self {
        case let .noLongerStarts(name): ["change": "no_longer_starts", "name": name.map(JSONValue.string) ?? .null]
        case let .nowAlsoStarts(name): ["change": "now_also_starts", "name": name.map(JSONValue.string) ?? .null]
        case let .noLongerSends(action): ["change": "no_longer_sends", "action": action]
        case let .nowAlsoSends(action): ["change": "now_also_sends", "action": action]
        case let .noLongerEmits(output): ["change": "no_longer_emits", "output": output]
        case let .nowAlsoEmits(output): ["change": "now_also_emits", "output": output]
        case let .noLongerStartsWork(result): ["change": "no_longer_starts_work", "result_step": .int(result)]
        }
    }
}
