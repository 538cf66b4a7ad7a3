import Foundation
import RewindCore
import RewindJSON
import RewindRendering
import Testing

/// The exhaustive test of a reducer an app gives Rewind's `Store`: each action sent with the
/// state change it must make, each action an effect sends back received in order, each output
/// and each started effect asserted, and anything left unsaid a failure that names its step.
///
/// ```swift
/// let store = TestStore(initialState: TodoState(), reducer: TodoFeature(api: .unused), effects: .byName)
/// store.send(.addItem(title: "Buy milk")) {
///     $0.items = [TodoItem(id: 1, title: "Buy milk")]
///     $0.nextID = 2
/// }
/// store.send(.syncTapped, starts: ["todo.sync"]) { $0.sync = .syncing }
/// store.deliver(.syncResponse(.success(revision: 1)), from: "todo.sync") { $0.sync = .synced(revision: 1) }
/// await store.finish()
/// ```
///
/// States are compared as the recorder stores them (canonical JSON, a `Secret` as its
/// placeholder, whatever `==` says), so a test never needs a clear password and a type whose
/// `==` compares only an `id` is still compared field by field. A failure prints Rewind's
/// field diff, expected against actual, with its paths (`items[id=3].title`).
@MainActor
public final class TestStore<State: RecordableState, Action: RecordableAction> {
    /// The state after the last step the test sent, received or delivered.
    public internal(set) var state: State
    /// The number of steps reduced so far, counted as a recording counts them.
    public internal(set) var step = 0
    /// How much the test must say; may be changed between steps.
    public var exhaustivity: Exhaustivity
    /// What the store does with the async work a step starts.
    public let effects: TestEffects

    let reducer: any Reducer<State, Action>
    /// Actions sent back and not yet received, in the order a `Store` would dispatch them.
    var pending: [Received] = []
    /// Work started by name (``TestEffects/byName``): what `deliver` may hand a result from.
    var started: [StartedWork] = []
    /// Work running (``TestEffects/run``), by the number it was given.
    var running: [Int: RunningWork] = [:]
    var nextWorkID = 0
    /// Resumed when an action arrives or work ends, for a `receive` or `finish` that waits.
    var waiter: CheckedContinuation<Void, Never>?
    let encoder = JSONValueEncoder()

    /// A store at `initialState` whose steps `reducer` reduces.
    ///
    /// - Parameters:
    ///   - effects: `.run` runs the async work a step starts (give the reducer dependencies
    ///     under the test's control); `.byName` runs none and asserts it by name.
    ///   - exhaustivity: `.on` (the default) makes the test say everything a step does.
    ///   - step: the number of the step `initialState` is the state after, so that failures
    ///     name steps as the recording a test came from does (`rewind write-test --from N`).
    public init<R: Reducer>(
        initialState: State, reducer: R, effects: TestEffects = .run, exhaustivity: Exhaustivity = .on, step: Int = 0
    ) where R.State == State, R.Action == Action {
        self.state = initialState
        self.step = step
        self.reducer = reducer
        self.effects = effects
        self.exhaustivity = exhaustivity
    }

    /// Sends `action` as the user (or the app) would, and asserts what the step does.
    ///
    /// - Parameters:
    ///   - starts: the names of the async work the step starts, in order (nil for work given
    ///     no name). Left out, a step that starts work fails an exhaustive `.byName` test;
    ///     given, it is compared in every mode.
    ///   - assert: exhaustive, turns the state before into the state after (`$0.title =
    ///     "Milk"`); non-exhaustive, gets the state after and sets only what it asserts.
    public func send(
        _ action: Action, starts: [String?]? = nil,
        sourceLocation: SourceLocation = #_sourceLocation,
        assert: ((inout State) throws -> Void)? = nil
    ) {
        reducePending(before: "send(\(describe(action)))", sourceLocation: sourceLocation)
        reduce(action, cause: nil, starts: starts, assert: assert, sourceLocation: sourceLocation)
    }

    /// Hands in, as a result of the work named `effect` that an earlier step started, the
    /// action it would have sent back (``TestEffects/byName``): what a recording holds.
    public func deliver(
        _ action: Action, from effect: String?, starts: [String?]? = nil,
        sourceLocation: SourceLocation = #_sourceLocation,
        assert: ((inout State) throws -> Void)? = nil
    ) {
        guard effects == .byName else {
            Issue.record(
                "deliver(_:from:) hands in what work would have sent, for a TestStore whose effects are .byName; this one runs its effects: receive their actions",
                sourceLocation: sourceLocation)
            return
        }
        reducePending(before: "deliver(\(describe(action)))", sourceLocation: sourceLocation)
        guard let index = started.lastIndex(where: { $0.name == effect }) else {
            let names = started.isEmpty ? "no step has started any" : "started: " + started.map { Self.describe($0.name) }.joined(separator: ", ")
            // Reduced all the same, so that the steps after it are compared as written.
            Issue.record(
                "step \(step + 1): deliver(\(describe(action))) from \(Self.describe(effect)), which no step started (\(names))", sourceLocation: sourceLocation
            )
            return reduce(action, cause: nil, starts: starts, assert: assert, sourceLocation: sourceLocation)
        }
        reduce(action, cause: started[index].step, starts: starts, assert: assert, sourceLocation: sourceLocation)
    }

    /// The number of actions sent back and not yet received.
    public var pendingActionCount: Int { pending.count }

    /// Describes an action for a failure as Rewind's timelines do: its name and its payload
    /// in short (`syncResponse(failure(message: "The network is down."))`).
    func describe(_ action: Action) -> String {
        let name = action.name
        guard let json = try? encoder.encode(action) else { return TerminalText.escaped(name) }
        let payload = ValueSummary.payload(of: json, name: name, limit: 80)
        return TerminalText.escaped(payload.isEmpty ? name : "\(name)(\(payload))")
    }

    static func describe(_ name: String?) -> String {
        name.map { "\"\(TerminalText.escaped($0))\"" } ?? "unnamed work"
    }
}

extension TestStore {
    /// An action sent back by a step: a follow-up (`.send`), an output, or a result of work.
    struct Received {
        enum Kind: Equatable {
            case followUp
            case output
            case result(work: String?)
        }

        let action: Action
        let cause: Int
        let kind: Kind
    }

    struct StartedWork {
        let name: String?
        let step: Int
    }

    struct RunningWork {
        let name: String?
        let step: Int
        let task: Task<Void, Never>
    }
}
