import Foundation
import RewindTestSupport
import Testing

@testable import RewindCore

/// What dispatch does on the app's thread once the recorder has caught up (an app at a human
/// pace): it copies nothing of the state and makes no system call. Counted, not timed: a
/// copy of the array of items moves it to another buffer, which its address shows, and a
/// push that wakes the recorder's napping thread is counted by the queue's sleeper, however
/// fast the machine.
@Suite struct IdleDispatchTests {
    struct Item: Codable, Equatable, Sendable {
        var id: Int
        var title: String
        var isDone = false
    }

    struct State: Codable, Equatable, Sendable {
        var items: [Item]
        var edits = 0
    }

    enum Action: Codable, Equatable, Sendable, DescribedAction {
        case toggle(Int)
        case rename(Int, String)
    }

    /// Changes one item of many a step, as a tap does.
    struct Feature: Reducer, Sendable {
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case let .toggle(index): state.items[index].isDone.toggle()
            case let .rename(index, title): state.items[index].title = title
            }
            state.edits += 1
            return .none
        }
    }

    static func state(items: Int) -> State {
        State(items: (0..<items).map { Item(id: $0, title: "item \($0) of a list long enough to matter") })
    }

    /// The address of the items' buffer, read without keeping the state.
    @MainActor static func itemsBuffer(of store: Store<State, Action>) -> UnsafeRawPointer? {
        store._state.items.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
    }

    /// Each step waits, as a person does, until the recorder has written the one before; then
    /// its dispatch must leave the items where they were and wake no thread. Over 2,100 steps:
    /// past the recorder's checks of its replica against the store (every 256 steps) and past
    /// the 1,024 steps after which a stale count of the waiting steps woke the recorder at
    /// every push. The first step too: the replica starts from a copy of the initial state
    /// that shares none of the store's arrays.
    @MainActor @Test(arguments: [1_000, 10_000])
    func anIdleRecordersStoreMutatesItsArrayInPlaceAndWakesNoThread(items: Int) throws {
        var configuration = RecorderConfiguration()
        configuration.onError = { error in Issue.record("the recorder reported \(error)") }
        let sink = InMemorySink.inMemory()
        let store = Store(
            initialState: Self.state(items: items), reducer: Feature(), recordingTo: sink,
            session: SessionDescriptor(name: "idle", flow: "items"), configuration: configuration, execution: .manual)
        let recorder = try #require(store.recorder)
        let steps = 2_100
        var copied: [Int] = []
        var wokeAt: [Int] = []
        for step in 1...steps {
            recorder.flush()
            let before = Self.itemsBuffer(of: store)
            let woken = recorder.queue.sleeper.napsEndedByPushes.load(ordering: .relaxed)
            store.send(step % 3 == 0 ? .rename(step * 7 % items, "renamed at \(step)") : .toggle(step * 13 % items))
            if Self.itemsBuffer(of: store) != before { copied.append(step) }
            if recorder.queue.sleeper.napsEndedByPushes.load(ordering: .relaxed) != woken { wokeAt.append(step) }
        }
        recorder.close()
        #expect(copied == [], "dispatches that copied the \(items) items on the app's thread")
        #expect(wokeAt == [], "dispatches that woke the recorder's napping thread")
        let recorded = try #require(sink.sessions.first)
        #expect(recorded.events.count == steps && recorded.gaps.isEmpty)
    }

    /// A state that does not come back whole from its encoding (here a field its coding keys
    /// leave out) starts the replica from the store's own state: the replica's checks agree,
    /// and nothing is lost or reported.
    @MainActor @Test func aStateThatItsEncodingDoesNotRestoreStartsTheReplicaFromTheStoresOwn() throws {
        struct Counted: Codable, Equatable, Sendable {
            var values: [Int]
            /// Not encoded, so a decoded copy has 1 here, where the store has 7.
            var increment = 1
            enum CodingKeys: String, CodingKey { case values }
        }
        struct AddIncrement: Reducer, Sendable {
            func reduce(into state: inout Counted, action: Action) -> Effect<Action> {
                if case let .toggle(index) = action { state.values[index] += state.increment }
                return .none
            }
        }
        var configuration = RecorderConfiguration()
        configuration.keyframeInterval = 8
        configuration.onError = { error in Issue.record("the recorder reported \(error)") }
        let sink = InMemorySink.inMemory()
        let store = Store(
            initialState: Counted(values: Array(repeating: 0, count: 10), increment: 7), reducer: AddIncrement(), recordingTo: sink,
            session: SessionDescriptor(name: "uncoded", flow: "counted"), configuration: configuration, execution: .manual)
        for step in 1...40 { store.send(.toggle(step % 10)) }
        let recorder = try #require(store.recorder)
        recorder.close()
        let recorded = try #require(sink.sessions.first)
        #expect(recorded.events.count == 40 && recorded.gaps.isEmpty)
        #expect(store.state.values == Array(repeating: 28, count: 10))
    }
}
