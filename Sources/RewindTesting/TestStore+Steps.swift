import Foundation
import RewindCore
import RewindJSON
import RewindRendering
import Testing

extension TestStore {
    /// Receives the next action an effect sent back, which must be `expected`, and asserts
    /// what its step does. Waits up to `timeout` for running work to send it.
    ///
    /// Non-exhaustive, actions before the first that is `expected` are reduced and pass.
    public func receive(
        _ expected: Action, starts: [String?]? = nil, timeout: Duration = .seconds(1),
        sourceLocation: SourceLocation = #_sourceLocation,
        assert: ((inout State) throws -> Void)? = nil
    ) async {
        let wanted = try? encoder.encode(expected)
        let received = await receive(
            describe(expected), matching: { [encoder] in (try? encoder.encode($0)) == wanted }, starts: starts, timeout: timeout,
            sourceLocation: sourceLocation, assert: assert)
        // Nothing came (a follow-up or an output the reducer no longer sends): where no work
        // runs, the action is reduced all the same, so that the steps after it are compared
        // as written rather than each failing one step off.
        if !received, effects != .run, pending.isEmpty {
            reduce(expected, cause: nil, starts: starts, assert: assert, sourceLocation: sourceLocation)
        }
    }

    /// Receives the next action an effect sent back that `matches` says is the one (such as
    /// one of a case, whatever its payload), and asserts what its step does.
    public func receive(
        where matches: (Action) -> Bool, starts: [String?]? = nil, timeout: Duration = .seconds(1),
        sourceLocation: SourceLocation = #_sourceLocation,
        assert: ((inout State) throws -> Void)? = nil
    ) async {
        _ = await receive("an action that matches", matching: matches, starts: starts, timeout: timeout, sourceLocation: sourceLocation, assert: assert)
    }

    /// Waits up to `timeout` for the work still running to end, then fails for every action
    /// sent back and not received, and for work that is still running (which it cancels).
    public func finish(timeout: Duration = .seconds(1), sourceLocation: SourceLocation = #_sourceLocation) async {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while !running.isEmpty, ContinuousClock.now < deadline {
            await waitForChange(until: deadline)
        }
        if exhaustivity == .on {
            for received in pending {
                Issue.record("at the end: \(unreceived(received))", sourceLocation: sourceLocation)
            }
        }
        pending.removeAll()
        for work in running.values.sorted(by: { $0.step < $1.step }) {
            Issue.record(
                "at the end: \(Self.describe(work.name)) started by step \(work.step) is still running after \(timeout); cancelled",
                sourceLocation: sourceLocation)
            work.task.cancel()
        }
        running.removeAll()
    }

    // MARK: - Steps

    /// Whether an action that `matches` was received (and its step reduced and checked).
    func receive(
        _ wanted: String, matching matches: (Action) -> Bool, starts: [String?]?, timeout: Duration,
        sourceLocation: SourceLocation, assert: ((inout State) throws -> Void)?
    ) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            if let index = pending.firstIndex(where: { matches($0.action) }), index == 0 || exhaustivity == .off {
                for _ in 0..<index {
                    let skipped = pending.removeFirst()
                    reduce(skipped.action, cause: skipped.cause, starts: nil, assert: nil, sourceLocation: sourceLocation, checked: false)
                }
                let received = pending.removeFirst()
                reduce(received.action, cause: received.cause, starts: starts, assert: assert, sourceLocation: sourceLocation)
                return true
            }
            if let first = pending.first {
                Issue.record("step \(step + 1): expected to receive \(wanted), but \(unreceived(first))", sourceLocation: sourceLocation)
                return false
            }
            guard !running.isEmpty, ContinuousClock.now < deadline else {
                let why = running.isEmpty ? "no work is running and no action is waiting" : "none arrived within \(timeout)"
                Issue.record("step \(step + 1): expected to receive \(wanted), but \(why)", sourceLocation: sourceLocation)
                return false
            }
            await waitForChange(until: deadline)
        }
    }

    /// Before a step from outside: actions still waiting are reduced first, as a `Store`
    /// dispatches them before anything else; exhaustive, each is a failure.
    func reducePending(before what: String, sourceLocation: SourceLocation) {
        while !pending.isEmpty {
            let received = pending.removeFirst()
            if exhaustivity == .on {
                Issue.record("step \(step + 1), before \(what): \(unreceived(received))", sourceLocation: sourceLocation)
            }
            reduce(received.action, cause: received.cause, starts: nil, assert: nil, sourceLocation: sourceLocation, checked: false)
        }
    }

    func unreceived(_ received: Received) -> String {
        let what: String
        switch received.kind {
        case .followUp: what = "the action \(describe(received.action)) that step \(received.cause) sends"
        case .output: what = "the output \(describe(received.action)) that step \(received.cause) emits"
        case .result(let work): what = "the action \(describe(received.action)) that \(Self.describe(work)) of step \(received.cause) sent back"
        }
        return "\(what) was not received: assert it with receive(…)"
    }

    /// Reduces one step, then checks its state, its started work and what it sent back.
    func reduce(
        _ action: Action, cause: Int?, starts: [String?]?, assert: ((inout State) throws -> Void)?,
        sourceLocation: SourceLocation, checked: Bool = true
    ) {
        let before = state
        let effect = reducer.reduce(into: &state, action: action)
        step += 1
        let label = "step \(step) (\(TerminalText.escaped(action.name)))"
        if checked {
            checkState(label, before: before, assert: assert, sourceLocation: sourceLocation)
        }
        let work = effect.work
        let names = work.map { $0.name }
        if let starts, starts != names {
            Issue.record("\(label) starts \(Self.describe(names)), the test expects \(Self.describe(starts))", sourceLocation: sourceLocation)
        } else if starts == nil, checked, effects == .byName, exhaustivity == .on, !names.isEmpty {
            let list = names.map { $0.map { "\"\(TerminalText.escaped($0))\"" } ?? "nil" }.joined(separator: ", ")
            Issue.record("\(label) starts \(Self.describe(names)), which the test does not assert: send(…, starts: [\(list)])", sourceLocation: sourceLocation)
        }
        if effects == .ignored { return }
        for followUp in effect.followUps {
            pending.append(Received(action: followUp.action, cause: step, kind: followUp.isOutput ? .output : .followUp))
        }
        switch effects {
        case .byName:
            started += names.map { StartedWork(name: $0, step: step) }
        case .run:
            for each in work { start(each, cause: step) }
        case .ignored:
            break
        }
    }

    static func describe(_ names: [String?]) -> String {
        names.isEmpty ? "no work" : "[" + names.map(describe).joined(separator: ", ") + "]"
    }

    /// Compares the state after a step with what the test says it is, as the recorder would
    /// store both.
    func checkState(_ label: String, before: State, assert: ((inout State) throws -> Void)?, sourceLocation: SourceLocation) {
        var expected = exhaustivity == .on ? before : state
        do {
            try assert?(&expected)
        } catch {
            Issue.record("\(label): the state closure threw \(error)", sourceLocation: sourceLocation)
            return
        }
        let expectedTree: JSONValue
        let actualTree: JSONValue
        do {
            expectedTree = try encoder.encode(expected)
            actualTree = try encoder.encode(state)
        } catch {
            Issue.record("\(label): cannot encode \(State.self): \(error)", sourceLocation: sourceLocation)
            return
        }
        guard expectedTree != actualTree else { return }
        let changes = JSONDiff.changes(from: expectedTree, to: actualTree)
        let lines = DiffRenderer(style: .plain).render(changes).map { "  " + $0 }
        let why = exhaustivity == .on && assert == nil ? "the state changed and the test says it does not" : "the state differs from what the test says"
        Issue.record(Comment(rawValue: (["\(label): \(why) (expected → actual):"] + lines).joined(separator: "\n")), sourceLocation: sourceLocation)
    }

    // MARK: - Running work

    func start(_ work: Effect<Action>.Work, cause: Int) {
        let id = nextWorkID
        nextWorkID += 1
        let send = Send<Action> { [weak self] action in
            guard let self, self.running[id] != nil else { return }
            self.pending.append(Received(action: action, cause: cause, kind: .result(work: work.name)))
            self.wake()
        }
        let task = Task { @MainActor [weak self] in
            await work.run(send)
            self?.running[id] = nil
            self?.wake()
        }
        running[id] = RunningWork(name: work.name, step: cause, task: task)
    }

    func wake() {
        waiter?.resume()
        waiter = nil
    }

    /// Suspends until an action arrives, work ends, or `deadline` passes.
    func waitForChange(until deadline: ContinuousClock.Instant) async {
        let timer = Task { @MainActor [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            self?.wake()
        }
        await withCheckedContinuation { waiter = $0 }
        timer.cancel()
    }
}
