import Testing

@testable import RewindCore

@MainActor
@Suite struct StoreTests {
    @Test func dispatchRunsTheReducerAndCountsSteps() {
        let store = Store(initialState: Counter.State(), reducer: Counter())
        store.send(.increment)
        store.send(.increment)
        #expect(store.state.count == 2)
        #expect(store.step == 2)
    }

    @Test func effectResultsComeBackAsActionsCausedByTheirStep() async {
        let trace = Trace<Counter.State, Counter.Action>()
        let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [trace], execution: .manual)
        store.send(.increment)
        store.send(.didTapFact)
        #expect(store.state.fact == nil)
        #expect(store.hasPendingEffects)
        await store.settle()
        #expect(store.state.fact == "1 is a number")
        #expect(trace.steps.map(\.action) == [.increment, .didTapFact, .factResponse("1 is a number")])
        #expect(
            trace.steps.map(\.context) == [
                StepContext(step: 1, cause: nil), StepContext(step: 2, cause: nil), StepContext(step: 3, cause: 2),
            ])
    }

    @Test func liveEffectsDeliverWithoutSettling() async {
        let store = Store(initialState: Counter.State(), reducer: Counter(), execution: .live)
        store.send(.didTapFact)
        var facts = store.values(of: \.fact).makeAsyncIterator()
        while let fact = await facts.next() {
            if fact != nil { break }
        }
        #expect(store.state.fact == "0 is a number")
        #expect(!store.hasPendingEffects)
    }

    @Test func outputsAreListedWithTheirStepAndDispatchedNext() {
        let trace = Trace<Counter.State, Counter.Action>()
        let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [trace])
        store.send(.increment)
        store.send(.didTapDone)
        #expect(trace.steps.count == 3)
        #expect(trace.steps[1].outputs == [.output(.didFinish(count: 1))])
        #expect(trace.steps[2].action == .output(.didFinish(count: 1)))
        #expect(trace.steps[2].context == StepContext(step: 3, cause: 2))
        #expect(trace.steps[2].outputs.isEmpty)
    }

    @Test func middlewareSeesTheStateBeforeAndAfter() {
        let spy = BeforeAfterSpy()
        let store = Store(initialState: Counter.State(count: 5), reducer: Counter(), middleware: [spy])
        store.send(.increment)
        #expect(spy.initial == 5)
        #expect(spy.pairs.count == 1)
        #expect(spy.pairs.first?.before == 5)
        #expect(spy.pairs.first?.after == 6)
    }

    @Test func replayingTheSameActionsGivesTheSameStates() async {
        func run() async -> [Counter.State] {
            let trace = Trace<Counter.State, Counter.Action>()
            let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [trace], execution: .manual)
            for action in [Counter.Action.increment, .didTapFact, .increment, .didTapDone] {
                store.send(action)
                await store.settle()
            }
            return trace.steps.map(\.state)
        }
        let first = await run()
        #expect(first.count == 6)
        #expect(await run() == first)
    }

    @Test func mapLiftsChildEffectsWithoutLosingOutputs() async {
        var state = Counter.State(count: 2)
        let effect = Counter().reduce(into: &state, action: .didTapDone)
        let lifted = effect.map(Wrapper.counter)
        guard case let .send(action, isOutput) = lifted.operations.first else {
            Issue.record("expected a send operation")
            return
        }
        #expect(action == .counter(.output(.didFinish(count: 2))))
        #expect(isOutput)
        #expect(Effect<Counter.Action>.none.map(Wrapper.counter).isNone)
    }
}

private enum Wrapper: Equatable, Sendable {
    case counter(Counter.Action)
}

@MainActor
private final class BeforeAfterSpy: StoreMiddleware {
    var initial: Int?
    var pending: Int?
    var pairs: [(before: Int, after: Int)] = []

    func storeDidStart(initialState: Counter.State) { initial = initialState.count }
    func willReduce(_ action: Counter.Action, state: Counter.State, context: StepContext) { pending = state.count }
    func didReduce(_ action: Counter.Action, state: Counter.State, context: StepContext, outputs: [Counter.Action]) {
        pairs.append((pending ?? -1, state.count))
    }
}
