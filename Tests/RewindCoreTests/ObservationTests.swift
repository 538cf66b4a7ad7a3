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

    /// Items equal by their id alone, as some apps write `==`.
    struct Item: Equatable {
        var id: Int
        var title: String
        static func == (a: Item, b: Item) -> Bool { a.id == b.id }
    }

    struct Rename: Reducer {
        func reduce(into state: inout [Item], action: String) -> Effect<String> {
            state[0].title = action
            return .none
        }
    }

    @Test func anIdOnlyEqualityHidesARenameUnlessTheObserverComparesItAll() {
        let store = Store(initialState: [Item(id: 1, title: "Milk")], reducer: Rename())
        var byEquality: [String] = [], byTitle: [String] = []
        store.observe(\.self) { byEquality.append($0[0].title) }
        let sameTitles: ([Item], [Item]) -> Bool = { $0.map(\.title) == $1.map(\.title) }
        store.observe(\.self, removingDuplicates: sameTitles) { byTitle.append($0[0].title) }
        store.send("Oat milk")
        store.send("Oat milk")
        store.send("Bread")
        #expect(byEquality == [], "== sees the same ids")
        #expect(byTitle == ["Oat milk", "Bread"])
    }
}
