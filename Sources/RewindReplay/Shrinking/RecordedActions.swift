import Foundation
import RewindCore
import RewindJSON
import RewindLog

/// A recorded session's actions, ready to replay in part: with some steps left out together
/// with what they caused, for `rewind minimize` and what-if replays.
///
/// An effect's result is recorded as an action whose `cause` is the step that started the
/// effect, so leaving a step out leaves out every step that descends from it: the app would
/// never have received those results. Actions and states are migrated to the flow's schema
/// as they are read, as a replay does.
public struct RecordedActions: Sendable {
    /// One recorded step.
    public struct Step: Sendable, Equatable {
        /// Its number in the recording.
        public let step: Int
        public let time: Date
        public let action: JSONValue
        /// The step whose effect sent this action; nil for a user's action.
        public let cause: Int?
        public let outputs: [JSONValue]
        /// What the step asked for, its sends migrated as its action is; nil where the
        /// recording did not record it.
        public let effects: RecordedEffects?
    }

    /// A recorded transition: the state before a step, as a digest, and the step's action.
    struct Transition: Hashable {
        let before: StateDigest
        let action: JSONValue
    }

    public let log: String
    public let session: SessionSummary
    public let flow: ReplayFlow
    /// The recorded initial state, migrated.
    public let initialState: JSONValue
    /// Every recorded step, in order.
    public let steps: [Step]
    /// The recorded state after each step, migrated, when asked for (`keepingStates`); empty
    /// otherwise.
    public let states: [JSONValue]
    /// What the recording says each transition gave, and at which step: the evidence a
    /// shortened replay is checked against, since the reducer that recorded is gone.
    let transitions: [Transition: (after: StateDigest, step: Int, behaviour: RecordedBehaviour)]

    /// Reads session `selector` of the log at `path` (the only one when nil) for the flow
    /// `registry` has under its name, through step `last` when given.
    public init(
        log path: String, session selector: String?, registry: ReplayRegistry, through last: Int? = nil, keepingStates: Bool = false
    ) throws(LogError) {
        let reader = try LogReader(path: path)
        let session = try reader.session(selector)
        guard let flow = registry[session.flow] else {
            throw LogError(
                .invalidArgument, path: path, session: session.number,
                "session \(session.label) is of flow '\(session.flow)', which is not registered (known: \(registry.names.joined(separator: ", ")))")
        }
        guard session.schemaVersion <= flow.schemaVersion else {
            throw LogError(
                .invalidArgument, path: path, session: session.number,
                "session \(session.label) was recorded with schema version \(session.schemaVersion), newer than flow \(flow.name)'s \(flow.schemaVersion)")
        }
        func migrated(_ value: JSONValue, isAction: Bool) throws(LogError) -> JSONValue {
            var copy = value
            do {
                try flow.migrate(&copy, isAction: isAction, from: session.schemaVersion)
            } catch {
                throw LogError(
                    .invalidArgument, path: path, session: session.number, "the migration from schema version \(session.schemaVersion) failed: \(error)")
            }
            return copy
        }
        // A trimmed session starts from its first kept state, as its replay does.
        let start = session.firstKeptState
        let initial = try migrated(try reader.state(of: session, at: start), isAction: false)
        var steps: [Step] = []
        var states: [JSONValue] = []
        var transitions: [Transition: (after: StateDigest, step: Int, behaviour: RecordedBehaviour)] = [:]
        var failure: LogError?
        var before = initial.digest(by: session.digestRule)
        try reader.walkStates(session, steps: (start + 1)...max(start + 1, min(last ?? .max, session.lastStep))) { event, after in
            guard failure == nil else { return }
            do throws(LogError) {
                let action = try migrated(event.action, isAction: true)
                let migratedAfter = session.schemaVersion < flow.schemaVersion ? try migrated(after, isAction: false) : after
                let afterDigest = session.schemaVersion < flow.schemaVersion ? migratedAfter.digest(by: session.digestRule) : event.digest
                if keepingStates { states.append(migratedAfter) }
                var effects = event.effects
                if let sends = effects?.sends, !sends.isEmpty { effects?.sends = try sends.map { send throws(LogError) in try migrated(send, isAction: true) } }
                let outputs = try event.outputs.map { output throws(LogError) in try migrated(output, isAction: true) }
                steps.append(Step(step: event.step, time: event.time, action: action, cause: event.cause, outputs: outputs, effects: effects))
                // The first recording of a transition is the evidence; a later one that differs
                // would be the recording's own nondeterminism, which replay reports separately.
                let transition = Transition(before: before, action: action)
                if transitions[transition] == nil {
                    transitions[transition] = (afterDigest, event.step, RecordedBehaviour(cause: event.cause, outputs: outputs, effects: effects))
                }
                before = afterDigest
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        self.log = path
        self.session = session
        self.flow = flow
        self.initialState = initial
        self.steps = steps
        self.states = states
        self.transitions = transitions
        let known = Set(steps.map(\.step))
        self.userSteps = steps.filter { step in step.cause.map { !known.contains($0) } ?? true }.map(\.step)
    }

    /// The steps no other step of the session caused: the user's actions, the units a search
    /// removes. Worked out once: a search asks for every try.
    public let userSteps: [Int]

    /// The steps left when `removed` are left out, with every step they caused, in order.
    public func removing(_ removed: Set<Int>) -> [Step] {
        var gone = removed
        var kept: [Step] = []
        kept.reserveCapacity(steps.count)
        for step in steps {
            if gone.contains(step.step) || step.cause.map(gone.contains) == true {
                gone.insert(step.step)
            } else {
                kept.append(step)
            }
        }
        return kept
    }

    /// The steps kept when of the user's actions only `users` are kept: those and what they
    /// caused, in order.
    public func keeping(users: Set<Int>) -> [Step] {
        removing(Set(userSteps).subtracting(users))
    }

    /// What the recording says `action` gave from the state whose digest is `before`.
    func recorded(from before: StateDigest, action: JSONValue) -> (after: StateDigest, step: Int, behaviour: RecordedBehaviour)? {
        transitions[Transition(before: before, action: action)]
    }
}
