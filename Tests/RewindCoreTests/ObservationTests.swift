import RewindCore
import Testing

@MainActor
@Suite struct ObservationTests {
    @Test func observeReportsOnlyChangesOfItsKeyPath() {
        let store = Store(initialState: Counter.State(), reducer: Counter())
        var counts: [Int] = []
        var facts: [String?] = []
        store.observe(\.count) { counts.append($0) }
        store.observe(\.fact) { facts.append($0) }
        store.send(.increment)
        store.send(.increment)
        store.send(.factResponse("hello"))
        #expect(counts == [1, 2])
        #expect(facts == ["hello"])
    }

    @Test func cancelledObservationsStopReporting() {
        let store = Store(initialState: Counter.State(), reducer: Counter())
        var counts: [Int] = []
        let observation = store.observe(\.count) { counts.append($0) }
        store.send(.increment)
        observation.cancel()
        store.send(.increment)
        #expect(counts == [1])
    }

    @Test func valuesStartWithTheCurrentValue() async {
        let store = Store(initialState: Counter.State(count: 7), reducer: Counter())
        var values = store.values(of: \.count).makeAsyncIterator()
        store.send(.increment)
        store.send(.factResponse("unrelated"))
        store.send(.increment)
        #expect(await values.next() == 7)
        #expect(await values.next() == 8)
        #expect(await values.next() == 9)
    }
}
