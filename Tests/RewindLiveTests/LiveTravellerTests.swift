import Foundation
import RewindCore
import RewindJSON
import RewindLive
import RewindLog
import RewindTestSupport
import Testing

/// A recording store sent to recorded steps, back to the present and past skipped steps, with
/// every state read from its own log and decoded by its own types.
@MainActor
@Suite struct LiveTravellerTests {
    /// Adds numbers; `addLater` adds through an effect, a step that causes the next.
    struct Tally: Reducer, Sendable {
        struct State: Codable, Equatable, Sendable {
            var total = 0
            var count = 0
        }

        enum Action: Codable, Equatable, Sendable, DescribedAction {
            case add(Int)
            case addLater(Int)
            var origin: String { "tally" }
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .add(let number):
                state.total += number
                state.count += 1
                return .none
            case .addLater(let number):
                return .run { send in await send(.add(number)) }
            }
        }
    }

    /// A store recording into a fresh log, 50 steps in (`add(1)` through `add(50)`), and its
    /// traveller.
    private func recording(in folder: TemporaryDirectory) throws -> (Store<Tally.State, Tally.Action>, LiveTraveller<Tally.State, Tally.Action>) {
        let path = folder.path("tally.rewind")
        let session = SessionDescriptor(name: "tally", flow: "tally")
        let store = Store(initialState: Tally.State(), reducer: Tally(), recordingTo: try SQLiteSink(path: path), session: session, execution: .manual)
        for number in 1...50 { store.send(.add(number)) }
        return (store, LiveTraveller(store: store, reducer: Tally(), logPath: path, session: session))
    }

    @Test func travelShowsTheLogsStateAndResumeThePresent() throws {
        let folder = try TemporaryDirectory()
        let (store, traveller) = try recording(in: folder)
        try traveller.perform(.travel(step: 10))
        let reader = try LogReader(path: traveller.logPath)
        let recorded = try reader.state(of: try reader.session("1"), at: 10)
        #expect(recorded == ["count": 10, "total": 55])
        #expect(store.isTravelling && store.state == Tally.State(total: 55, count: 10))
        store.send(.add(1_000))
        #expect(store.heldActionCount == 1 && store.step == 50)
        try traveller.perform(.travel(step: 0))
        #expect(store.state == Tally.State())
        try traveller.perform(.resume)
        #expect(!store.isTravelling && store.state == Tally.State(total: 1_275, count: 50))
        store.recorder?.close()
        #expect(try LogReader(path: traveller.logPath).session("1").eventCount == 50, "nothing held back or shown was recorded")
    }

    @Test func skippingRecomputesThePresentWithoutTheStep() throws {
        let folder = try TemporaryDirectory()
        let (store, traveller) = try recording(in: folder)
        try traveller.perform(.skip(step: 5))
        #expect(store.state == Tally.State(total: 1_270, count: 49) && traveller.skipped == [5])
        try traveller.perform(.skip(step: 7))
        #expect(store.state == Tally.State(total: 1_263, count: 48))
        try traveller.perform(.unskip(step: 5))
        #expect(store.state == Tally.State(total: 1_268, count: 49) && traveller.skipped == [7])
        try traveller.perform(.unskip(step: 7))
        #expect(!store.isTravelling && store.state == Tally.State(total: 1_275, count: 50) && traveller.skipped.isEmpty)
        #expect(store.presentState == Tally.State(total: 1_275, count: 50))
    }

    /// A skipped step goes with the steps it caused: an effect's result cannot come without it.
    @Test func skippingAStepSkipsWhatItCaused() async throws {
        let folder = try TemporaryDirectory()
        let (store, traveller) = try recording(in: folder)
        store.send(.addLater(1_000))
        await store.settle()
        #expect(store.step == 52 && store.state.total == 2_275)
        try traveller.perform(.skip(step: 51))
        #expect(store.state == Tally.State(total: 1_275, count: 50))
    }

    /// An action written as JSON is decoded by the app's type and recorded as the inspector's;
    /// a travelling store returns to the present first.
    @Test func aDispatchedActionIsRecordedWithTheOriginInspector() throws {
        let folder = try TemporaryDirectory()
        let (store, traveller) = try recording(in: folder)
        try traveller.perform(.travel(step: 3))
        try traveller.perform(.dispatch(action: ["add": ["_0": 1_000]]))
        #expect(!store.isTravelling && store.step == 51 && store.state == Tally.State(total: 2_275, count: 51))
        #expect(throws: LiveTravelError.self) { try traveller.perform(.dispatch(action: ["multiply": ["_0": 2]])) }
        #expect(store.step == 51)
        store.recorder?.close()
        let reader = try LogReader(path: traveller.logPath)
        let session = try reader.session("1")
        #expect(session.lastStep == 51)
        let events = try reader.events(of: session, steps: 50...51)
        #expect(events.map(\.origin) == ["tally", LiveTraveller<Tally.State, Tally.Action>.origin])
        #expect(events[1].action == ["add": ["_0": 1_000]])
    }

    @Test func aStepTheSessionHasNotReachedIsRefusedAndChangesNothing() throws {
        let folder = try TemporaryDirectory()
        let (store, traveller) = try recording(in: folder)
        #expect(throws: LiveTravelError(.noSuchStep, step: 51, "step 51 is not in the session, which is at step 50")) {
            try traveller.perform(.travel(step: 51))
        }
        #expect(throws: LiveTravelError(.noSuchStep, step: 0, "step 0 is not in the session, which is at step 50")) {
            try traveller.perform(.skip(step: 0))
        }
        #expect(throws: LiveTravelError(.noSuchStep, step: 3, "step 3 is not skipped")) { try traveller.perform(.unskip(step: 3)) }
        #expect(!store.isTravelling && store.state.total == 1_275)
    }

    /// Counts, with a state type that refuses to read a count of 3, as a type changed since
    /// the recording might.
    struct Picky: Reducer, Sendable {
        struct State: Codable, Equatable, Sendable {
            var count = 0
            init() {}
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                count = try container.decode(Int.self, forKey: .count)
                if count == 3 { throw DecodingError.dataCorruptedError(forKey: .count, in: container, debugDescription: "3 is refused") }
            }
        }

        enum Action: String, Codable, Equatable, Sendable, DescribedAction {
            case tick
            var origin: String { "picky" }
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            state.count += 1
            return .none
        }
    }

    /// A recorded state the app's type does not read is refused in one line; the app goes on.
    @Test func aStateThatDoesNotDecodeIsRefused() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("picky.rewind")
        let session = SessionDescriptor(name: "picky", flow: "picky")
        let store = Store(initialState: Picky.State(), reducer: Picky(), recordingTo: try SQLiteSink(path: path), session: session)
        for _ in 1...5 { store.send(.tick) }
        let traveller = LiveTraveller(store: store, reducer: Picky(), logPath: path, session: session)
        var refusal: LiveTravelError?
        do { try traveller.perform(.travel(step: 3)) } catch { refusal = error }
        #expect(refusal?.kind == .undecodable && refusal?.step == 3)
        // One line for a person: the type, the field and the reason, not `DecodingError`'s text.
        #expect(refusal?.message == "the state of step 3: cannot decode LiveTravellerTests.Picky.State at count: 3 is refused")
        #expect(!store.isTravelling && store.state.count == 5)
        try traveller.perform(.travel(step: 2))
        #expect(store.state.count == 2)
    }
}
