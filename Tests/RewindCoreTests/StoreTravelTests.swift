import Foundation
import Observation
import RewindCore
import RewindJSON
import Testing

/// A store sent to a past state and back (DESIGN.md section 17): what it shows, what it holds
/// back, and what it still records.
@MainActor
@Suite struct StoreTravelTests {
    @Test func travellingShowsThePastAndHoldsBackWhatTheUISends() {
        let store = Store(initialState: Counter.State(), reducer: Counter())
        var counts: [Int] = []
        store.observe(\.count) { counts.append($0) }
        for _ in 1...5 { store.send(.increment) }
        store.travel(to: Counter.State(count: 2))
        #expect(store.isTravelling && store.state.count == 2 && store.presentState.count == 5 && store.step == 5)
        store.send(.increment)
        store.send(.increment)
        #expect(store.heldActionCount == 2 && store.presentState.count == 5 && store.step == 5, "held back, not reduced")
        store.travel(to: Counter.State(count: 4))
        #expect(store.state.count == 4 && store.heldActionCount == 2, "travelling on keeps the count")
        store.resume()
        #expect(!store.isTravelling && store.heldActionCount == 0 && store.state.count == 5)
        store.send(.increment)
        #expect(counts == [1, 2, 3, 4, 5, 2, 4, 5, 6])
    }

    @Test func resumingAStoreThatIsNotTravellingChangesNothing() {
        let store = Store(initialState: Counter.State(count: 3), reducer: Counter())
        var counts: [Int] = []
        store.observe(\.count) { counts.append($0) }
        store.resume()
        #expect(!store.isTravelling && store.state.count == 3 && counts.isEmpty)
    }

    /// An effect's result reduces the present unseen and is recorded: the log stays the record
    /// of what the app did, and the app resumes where it really is.
    @Test func anEffectsResultWhileTravellingReducesThePresentUnseen() async throws {
        let sink = InMemorySink.inMemory()
        let recorder = Recorder<Counter.State, Counter.Action>(sink: sink, session: SessionDescriptor(name: "counter", flow: "counter"))
        let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [recorder], execution: .manual)
        var facts: [String?] = []
        store.observe(\.fact) { facts.append($0) }
        store.send(.increment)
        store.send(.didTapFact)
        store.travel(to: Counter.State())
        store.send(.increment)
        await store.settle()
        #expect(store.state.fact == nil && store.presentState.fact == "1 is a number" && store.step == 3)
        #expect(facts.isEmpty, "the present's change is not shown")
        store.resume()
        #expect(store.state.fact == "1 is a number" && facts == ["1 is a number"])
        recorder.close()
        let recorded = try #require(sink.sessions.first)
        #expect(recorded.events.map(\.actionName) == ["increment", "didTapFact", "factResponse"], "the held increment is not recorded")
        #expect(try recorded.state(at: 3) == ["count": 1, "fact": "1 is a number"])
    }

    /// What an inspector dispatches is recorded with its origin, and that step alone: the
    /// steps it causes keep their own, and an action sent during a dispatch keeps its own.
    @Test func anInspectorsActionIsRecordedAsTheInspectors() async throws {
        let sink = InMemorySink.inMemory()
        let recorder = Recorder<Counter.State, Counter.Action>(sink: sink, session: SessionDescriptor(name: "counter", flow: "counter"))
        let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [recorder], execution: .manual)
        store.send(.increment)
        store.send(.didTapFact, recordedAs: "inspector")
        await store.settle()
        var sentFromObserver = false
        let observation = store.observe(\.count) { _ in
            guard !sentFromObserver else { return }
            sentFromObserver = true
            store.send(.didTapDone, recordedAs: "inspector")
        }
        store.send(.increment)
        observation.cancel()
        store.travel(to: Counter.State())
        store.send(.increment, recordedAs: "inspector")
        #expect(store.heldActionCount == 1 && store.step == 6, "a travelling store holds it back")
        recorder.close()
        let recorded = try #require(sink.sessions.first)
        #expect(recorded.events.map(\.actionName) == ["increment", "didTapFact", "factResponse", "increment", "didTapDone", "output"])
        #expect(recorded.events.map(\.origin) == ["counter", "inspector", "counter", "counter", "counter", "counter"])
        #expect(recorded.events[1].effects == RecordedEffects(runs: [nil]), "its work is recorded as ever")
        #expect(recorded.events[3].effects == RecordedEffects())
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func observationSeesTheTravelAndTheResume() {
        let store = Store(initialState: Counter.State(), reducer: Counter())
        store.send(.increment)
        let fired = ObservableStoreTests.Fired()
        func track() {
            withObservationTracking {
                _ = store.state
            } onChange: {
                fired.count += 1
            }
        }
        track()
        store.travel(to: Counter.State())
        #expect(fired.count == 1)
        track()
        store.send(.increment)
        #expect(fired.count == 1, "a held action changes nothing shown")
        store.resume()
        #expect(fired.count == 2 && store.state.count == 1)
    }
}
