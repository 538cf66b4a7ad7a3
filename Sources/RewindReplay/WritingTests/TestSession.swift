import RewindCore
import RewindJSON

/// A recorded session as ``TestWriter`` writes it: where it starts, and each step with its
/// action, its cause, what it asked for and the state after it.
public struct TestSession: Sendable {
    public struct Step: Sendable {
        public let number: Int
        public let action: JSONValue
        /// The step whose effect sent this action; nil for the user's (or the app's).
        public let cause: Int?
        public let sends: [JSONValue]
        public let outputs: [JSONValue]
        /// The names of the work the step started, in order (nil for work given none).
        public let runs: [String?]
        public let state: JSONValue
    }

    /// The log's file name, without its folder (a test holds no path of the machine), or the
    /// location of the store elsewhere it was read from.
    public let log: String
    public let number: Int
    public let name: String?
    public let flow: String
    public let types: FlowTypes
    /// The step the test starts after, and the state after it.
    public let firstStep: Int
    public let initialState: JSONValue
    public let steps: [Step]
    /// Whether the log recorded the work each step started and the actions it sent back
    /// (every format since 5): without it, a test asserts states only.
    public let recordsEffects: Bool
    /// The length of the session before ``ShrunkSession`` shortened it, when it did.
    public let shortenedFrom: Int?

    public var lastStep: Int { steps.last?.number ?? firstStep }

    /// Steps `from`+1 through `to` of a recorded session (read with `keepingStates`), each
    /// with its recorded state.
    public init(_ recorded: RecordedActions, from: Int? = nil, to: Int? = nil) throws(TestWriterError) {
        guard recorded.states.count == recorded.steps.count else {
            preconditionFailure("RecordedActions read without keepingStates")
        }
        let number = recorded.session.number
        let first = recorded.session.firstKeptState
        let start = from ?? first
        let end = to ?? recorded.steps.last?.step ?? first
        guard start >= first, start <= end, end <= (recorded.steps.last?.step ?? first) else {
            throw TestWriterError(
                .invalidWindow, session: number,
                "--from \(start) --to \(end) is outside session \(recorded.session.label), whose steps are \(first)–\(recorded.steps.last?.step ?? first)")
        }
        var initial = recorded.initialState
        var steps: [Step] = []
        for (index, step) in recorded.steps.enumerated() where step.step <= end {
            if step.step <= start {
                initial = recorded.states[index]
                continue
            }
            steps.append(Step(recorded: step, state: recorded.states[index]))
        }
        self.init(recorded: recorded, firstStep: start, initialState: initial, steps: steps, shortenedFrom: nil)
    }

    /// The steps a shrinker kept, each with the state the current reducer gives it.
    public init(_ shrunk: ShrunkSession) {
        // Numbered from 1 again, as minimize's result is, so that the store's step numbers in a
        // failure are the comments' (cause links follow).
        let first = shrunk.actions.session.firstKeptState
        var renumbered: [Int: Int] = [:]
        var steps: [Step] = []
        for (index, (step, state)) in zip(shrunk.steps, shrunk.states).enumerated() {
            let number = first + index + 1
            renumbered[step.step] = number
            let recorded = Step(recorded: step, state: state)
            steps.append(
                Step(
                    number: number, action: recorded.action, cause: step.cause.flatMap { renumbered[$0] }, sends: recorded.sends,
                    outputs: recorded.outputs, runs: recorded.runs, state: state))
        }
        self.init(
            recorded: shrunk.actions, firstStep: shrunk.actions.session.firstKeptState, initialState: shrunk.actions.initialState, steps: steps,
            shortenedFrom: shrunk.originalSteps)
    }

    init(recorded: RecordedActions, firstStep: Int, initialState: JSONValue, steps: [Step], shortenedFrom: Int?) {
        // A store elsewhere is read under its location, which names no password
        // (`postgres://rewind@host:5432/team`); a log, by its file name alone.
        log = recorded.log.contains("://") ? recorded.log : String(recorded.log.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
        number = recorded.session.number
        name = recorded.session.name
        flow = recorded.flow.name
        types = recorded.flow.types
        self.firstStep = firstStep
        self.initialState = initialState
        self.steps = steps
        self.shortenedFrom = shortenedFrom
        recordsEffects = recorded.session.recordsEffects
    }
}

extension TestSession.Step {
    /// A recorded step of a session that records effects, where none means none asked for.
    init(recorded step: RecordedActions.Step, state: JSONValue) {
        self.init(
            number: step.step, action: step.action, cause: step.cause, sends: step.effects?.sends ?? [], outputs: step.outputs,
            runs: step.effects?.runs ?? [], state: state)
    }
}
