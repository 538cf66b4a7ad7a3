import Atomics
import Foundation
import RewindJSON
import RewindTestSupport
import Testing

@testable import RewindCore

/// A recorder that runs the reducer itself and takes the store's state only at its checks.
@Suite struct ReplicatingRecorderTests {
    /// One identity for every recorder of these tests, so that their headers compare equal.
    private static let id = UUID()

    private func session() -> SessionDescriptor {
        SessionDescriptor(name: "counter", flow: "counter", now: { Date(timeIntervalSince1970: 0) }, id: Self.id)
    }

    private func configuration(keyframeInterval: Int = 4, errors: Locked<[RecorderError]>? = nil) -> RecorderConfiguration {
        var configuration = RecorderConfiguration()
        configuration.keyframeInterval = keyframeInterval
        configuration.onError = { error in errors?.withLock { $0.append(error as! RecorderError) } }
        return configuration
    }

    /// Increments, a fact from an effect and an output, over several checks.
    @MainActor private func drive(_ store: Store<Counter.State, Counter.Action>) async {
        for round in 0..<7 {
            store.send(.increment)
            store.send(.didTapFact)
            await store.settle()
            if round % 3 == 0 { store.send(.didTapDone) }
        }
    }

    @MainActor @Test func aReplicatingRecorderStoresWhatTheOtherOneDoes() async throws {
        let plainSink = InMemorySink.inMemory()
        let replicaSink = InMemorySink.inMemory()
        let errors = Locked<[RecorderError]>([])
        let plain = Recorder<Counter.State, Counter.Action>(sink: plainSink, session: session(), configuration: configuration())
        let replicating = Recorder(sink: replicaSink, session: session(), replicating: Counter(), configuration: configuration(errors: errors))
        for recorder in [plain, replicating] {
            await drive(Store(initialState: Counter.State(), reducer: Counter(), middleware: [recorder], execution: .manual))
        }
        plain.close()
        replicating.close()
        let expected = try #require(plainSink.sessions.first)
        let recorded = try #require(replicaSink.sessions.first)
        #expect(expected.events.count == 27)
        #expect(recorded.events == expected.events)
        #expect(recorded.header == expected.header)
        #expect(recorded.gaps.isEmpty && errors.withLock { $0 }.isEmpty)
    }

    /// Held back for the next step's state, a session's last step reaches the log only with
    /// the next step or a flush; written when caught up, it reaches it at once, and the states
    /// are the store's.
    @MainActor @Test func writingWhenCaughtUpPutsTheLastStepInTheLogWithoutAFlush() async throws {
        let sink = InMemorySink.inMemory()
        var configuration = configuration(keyframeInterval: 256)
        configuration.writesWhenCaughtUp = true
        let store = Store(initialState: Counter.State(), reducer: Counter(), recordingTo: sink, session: session(), configuration: configuration)
        for _ in 1...5 { store.send(.increment) }
        var written = 0
        // Polled, a bounded number of times (a minute at least: a bound that only stops a hung
        // test): the writer's thread commits when it has the steps.
        for _ in 0..<12_000 where written < 5 {
            written = sink.sessions.first?.events.count ?? 0
            if written < 5 { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(written == 5, "every step is in the log with no flush")
        #expect(try sink.sessions.first?.state(at: 5) == ["count": 5])
        store.send(.increment)
        store.recorder?.close()
        #expect(sink.sessions.first?.events.count == 6)
    }

    @Test func theStoresStateGoesAlongOnlyAtTheChecks() throws {
        let recorder = Recorder(sink: InMemorySink.inMemory(), session: session(), replicating: Counter(), configuration: configuration())
        defer { recorder.close() }
        #expect((1...8).filter { recorder.takesState(at: $0, afterGap: false) } == [4, 8])
        #expect(recorder.takesState(at: 5, afterGap: true))
        // Asked for by the encoder once it has caught up: with the next step only.
        recorder.stateRequest.store(StateRequest.next, ordering: .relaxed)
        #expect([5, 6].map { recorder.takesState(at: $0, afterGap: false) } == [true, false])
        // After a disagreement: with every step.
        recorder.stateRequest.store(StateRequest.always, ordering: .relaxed)
        #expect([5, 6].map { recorder.takesState(at: $0, afterGap: false) } == [true, true])
        let plain = Recorder<Counter.State, Counter.Action>(sink: InMemorySink.inMemory(), session: session())
        defer { plain.close() }
        #expect((1...8).allSatisfy { plain.takesState(at: $0, afterGap: false) })
    }

    /// Counts, and from step 3 on takes a ticket from a counter shared by every run of it, as a
    /// reducer reading a clock would: its replica never gets the store's ticket.
    struct TicketTaking: Reducer {
        struct State: Codable, Equatable, Sendable {
            var count = 0
            var ticket: Int?
        }
        enum Action: Codable, Equatable, Sendable, DescribedAction { case increment }
        static let tickets = ManagedAtomic(0)
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            state.count += 1
            if state.count >= 3 { state.ticket = Self.tickets.wrappingIncrementThenLoad(ordering: .relaxed) }
            return .none
        }
    }

    @Test func aReducerThatIsNotDeterministicIsCaughtAndNothingWrongIsStored() async throws {
        let sink = InMemorySink.inMemory()
        let errors = Locked<[RecorderError]>([])
        let recorder = Recorder(sink: sink, session: session(), replicating: TicketTaking(), configuration: configuration(errors: errors))
        let states = await MainActor.run {
            let store = Store(initialState: TicketTaking.State(), reducer: TicketTaking(), middleware: [recorder], execution: .manual)
            return (1...40).map { _ in
                store.send(.increment)
                return store.state
            }
        }
        recorder.close()
        let recorded = try #require(sink.sessions.first)
        // Which steps the store's state confirmed depends on when the encoder caught up; what
        // cannot vary is that a stored step holds the store's state and every other is in a
        // gap that says why.
        let first = try #require(errors.withLock { $0 }.first)
        guard case let .replicaDisagreed(step, unconfirmed) = first else { return }
        #expect(step >= 3 && (step == 3 || unconfirmed?.contains(3) == true))
        for event in recorded.events {
            #expect(try recorded.state(at: event.step) == JSONValueEncoder().encode(states[event.step - 1]), "step \(event.step)")
        }
        let gapSteps = recorded.gaps.flatMap { Array($0.steps) }
        #expect((recorded.events.map(\.step) + gapSteps).sorted() == Array(1...40))
        // A step queued before the dispatching thread saw the replica stop, and encoded once the
        // recorder has let go of it, would be a gap that says so (a race too narrow to provoke).
        #expect(
            recorded.gaps.allSatisfy {
                $0.reason.hasPrefix("the reducer is not deterministic: run again on the recorder's thread, step ")
                    || $0.reason == "the recorder had neither the store's state nor its replica's"
            })
        #expect(unconfirmed == nil || recorded.gaps.contains { $0.reason.hasPrefix("the reducer is not deterministic") })
        #expect(recorded.events.last?.step == 40)
        #expect("\(first)".hasPrefix("the reducer is not deterministic"))
    }

    /// Tags items of a list: the reducer rebuilds an item's `tags`, so an item the store and
    /// the replica hold alike is held in storage of its own on each side. Counts the items
    /// encoded, by every recorder (only the test below uses it).
    struct Tagging: Reducer {
        struct Item: Codable, Equatable, Sendable {
            var id: Int
            var tags: [String]
            static let encodes = ManagedAtomic(0)
            func encode(to encoder: any Encoder) throws {
                Self.encodes.wrappingIncrement(ordering: .relaxed)
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(id, forKey: .id)
                try container.encode(tags, forKey: .tags)
            }
        }
        struct State: Codable, Equatable, Sendable { var items: [Item] }
        enum Action: Codable, Equatable, Sendable, DescribedAction { case tag(Int) }
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .tag(let index): state.items[index].tags.append("tag \(state.items[index].tags.count)")
            }
            return .none
        }
    }

    /// A check encodes the items its side changed since the last, not every item whose storage
    /// differs from the replica's: with one memo for both sides, each check encoded all 300
    /// twice (18,391 items encoded here; a todo app's recorder spent 10 s of a 30 s run at 10,000).
    @Test func aCheckEncodesOnlyTheItemsEachSideChanged() throws {
        let items = 300
        let steps = 120
        let initial = Tagging.State(items: (0..<items).map { Tagging.Item(id: $0, tags: ["new"]) })
        let sink = InMemorySink.inMemory()
        let errors = Locked<[RecorderError]>([])
        let before = Tagging.Item.encodes.load(ordering: .relaxed)
        let recorder = Recorder(sink: sink, session: session(), replicating: Tagging(), configuration: configuration(errors: errors))
        recorder.start(initialState: initial)
        var state = initial
        var states: [Tagging.State] = []
        for step in 1...steps {
            let action = Tagging.Action.tag(step * 7 % items)
            _ = Tagging().reduce(into: &state, action: action)
            recorder.record(action, state: state, step: step)
            states.append(state)
        }
        recorder.close()
        let encodes = Tagging.Item.encodes.load(ordering: .relaxed) - before
        let recorded = try #require(sink.sessions.first)
        #expect(recorded.events.map(\.step) == Array(1...steps))
        for event in recorded.events {
            #expect(try recorded.state(at: event.step) == JSONValueEncoder().encode(states[event.step - 1]), "step \(event.step)")
        }
        #expect(recorded.gaps.isEmpty && errors.withLock { $0 }.isEmpty)
        // The header, the replica's start and the first check each encode every item; after
        // that, a step encodes the item it tagged on the replica's side, and a check (at every
        // fourth step at least) the four or fewer the store tagged since the last.
        #expect(encodes <= 3 * items + 2 * steps, "\(encodes) items encoded")
    }

    @Test func afterDroppedStepsTheReplicaStartsAgainFromTheStoresState() throws {
        let sink = GatedSink()
        let errors = Locked<[RecorderError]>([])
        var configuration = configuration(keyframeInterval: 1_000, errors: errors)
        configuration.capacity = 4
        configuration.overflow = .dropWithGapMarker
        let recorder = Recorder(sink: sink, session: session(), replicating: Counter(), configuration: configuration)
        recorder.start(initialState: Counter.State())
        recorder.flush()
        recorder.record(.increment, state: Counter.State(count: 1), step: 1)
        // A flush writes step 1 unconfirmed, and its append holds the writer.
        let flushing = Thread { recorder.flush() }
        flushing.start()
        sink.waitUntilBlocked()
        for step in 2...100 { recorder.record(.increment, state: Counter.State(count: step), step: step) }
        sink.open()
        // The step after the gap brings the store's state, which the replica goes on from.
        for step in 101...110 { recorder.record(.increment, state: Counter.State(count: step), step: step) }
        recorder.close()
        let recorded = sink.memory.sessions[0]
        let gapSteps = recorded.gaps.flatMap { Array($0.steps) }
        #expect(!gapSteps.isEmpty && recorder.droppedCount == gapSteps.count)
        #expect((recorded.events.map(\.step) + gapSteps).sorted() == Array(1...110))
        for event in recorded.events {
            #expect(try recorded.state(at: event.step) == ["count": .int(event.step)])
        }
        #expect(errors.withLock { $0 }.isEmpty)
    }

    @Test func aFlushWritesTheStepsNotYetConfirmed() throws {
        let sink = InMemorySink.inMemory()
        let recorder = Recorder(sink: sink, session: session(), replicating: Counter(), configuration: configuration(keyframeInterval: 1_000))
        recorder.start(initialState: Counter.State())
        for step in 1...3 { recorder.record(.increment, state: Counter.State(count: step), step: step) }
        recorder.flush()
        #expect(sink.sessions[0].events.map(\.step) == [1, 2, 3])
        #expect(try sink.sessions[0].state(at: 3) == ["count": 3])
        recorder.close()
    }

    @MainActor @Test func aStoreMadeWithWhereToRecordHandsItsRecorderItsReducer() async throws {
        let plainSink = InMemorySink.inMemory()
        let plain = Recorder<Counter.State, Counter.Action>(sink: plainSink, session: session(), configuration: configuration())
        await drive(Store(initialState: Counter.State(), reducer: Counter(), middleware: [plain], execution: .manual))
        plain.close()
        let sink = InMemorySink.inMemory()
        let errors = Locked<[RecorderError]>([])
        let trace = Trace<Counter.State, Counter.Action>()
        let store = Store(
            initialState: Counter.State(), reducer: Counter(), recordingTo: sink, session: session(),
            configuration: configuration(errors: errors), middleware: [trace], execution: .manual)
        await drive(store)
        let recorder = try #require(store.recorder)
        recorder.close()
        #expect(recorder.confirmationInterval == 4)
        #expect(trace.steps.count == 27)
        #expect(sink.sessions.first?.events == plainSink.sessions.first?.events)
        #expect(sink.sessions.first?.gaps.isEmpty == true && errors.withLock { $0 }.isEmpty)
    }

    /// Says which of its two methods a script asked it for middleware with.
    @MainActor final class AskedHost: SessionHost {
        var asked: [String] = []

        func middleware<State: RecordableState, Action: RecordableAction>(
            for session: SessionDescriptor, state: State.Type, action: Action.Type
        ) -> [any StoreMiddleware<State, Action>] {
            asked.append("state and action")
            return []
        }

        func middleware<R: Reducer & Sendable>(
            for session: SessionDescriptor, reducer: R
        ) -> [any StoreMiddleware<R.State, R.Action>] where R.State: RecordableState, R.Action: RecordableAction {
            asked.append("reducer")
            return []
        }
    }

    /// Counter, but not `Sendable`: its recorder cannot run it on another thread.
    final class NotSendableCounter: Reducer {
        func reduce(into state: inout Counter.State, action: Counter.Action) -> Effect<Counter.Action> {
            Counter().reduce(into: &state, action: action)
        }
    }

    @MainActor @Test func aScriptOfASendableReducerAsksForARecorderThatRunsIt() async throws {
        let host = AskedHost()
        await SessionScript("s", flow: "counter", initialState: Counter.State(), reducer: { Counter() }) { $0.send(.increment) }
            .run(host: host)
        await SessionScript("n", flow: "counter", initialState: Counter.State(), reducer: { NotSendableCounter() }) {
            $0.send(.increment)
        }
        .run(host: host)
        #expect(host.asked == ["reducer", "state and action"])
    }

    @MainActor @Test func aRecordingHostRecordsWithTheReducerWhenGivenIt() async throws {
        let sink = InMemorySink.inMemory()
        let host = RecordingHost(sink: sink, configuration: { [self] in configuration() })
        let replicating = host.middleware(for: session(), reducer: Counter())
        let plain = host.middleware(for: session(), state: Counter.State.self, action: Counter.Action.self)
        #expect((replicating.first as? Recorder<Counter.State, Counter.Action>)?.confirmationInterval == 4)
        #expect((plain.first as? Recorder<Counter.State, Counter.Action>)?.confirmationInterval == 0)
        host.sessionDidFinish(session())
        host.sessionDidFinish(session())
    }

    /// TicketTaking, with a state that writes its own text: a recorder writes its states as
    /// text with their digests, and a replicating one checks the two states' digests so.
    struct TextTicketTaking: Reducer {
        struct State: Codable, Equatable, Sendable, JSONTreeEncodable {
            var count = 0
            var ticket = 0
            func encodeTree(_ encoder: JSONTreeEncoder) throws -> JSONValue { ["count": .int(count), "ticket": .int(ticket)] }
        }
        enum Action: Codable, Equatable, Sendable, DescribedAction { case increment }
        static let tickets = ManagedAtomic(0)
        /// Whether the reducer takes tickets from step 3 on; the same for every run otherwise.
        let takesTickets: Bool
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            state.count += 1
            if takesTickets && state.count >= 3 { state.ticket = Self.tickets.wrappingIncrementThenLoad(ordering: .relaxed) }
            return .none
        }
    }

    @MainActor @Test func aReplicaOfAStateWrittenAsTextStoresWhatTheOtherRecorderDoes() throws {
        let plainSink = InMemorySink.inMemory()
        let plain = Recorder<TextTicketTaking.State, TextTicketTaking.Action>(sink: plainSink, session: session(), configuration: configuration())
        let errors = Locked<[RecorderError]>([])
        let sink = InMemorySink.inMemory()
        let store = Store(
            initialState: TextTicketTaking.State(), reducer: TextTicketTaking(takesTickets: false), recordingTo: sink, session: session(),
            configuration: configuration(errors: errors), execution: .manual)
        let plainStore = Store(
            initialState: TextTicketTaking.State(), reducer: TextTicketTaking(takesTickets: false), middleware: [plain], execution: .manual)
        for _ in 1...30 {
            store.send(.increment)
            plainStore.send(.increment)
        }
        store.recorder?.close()
        plain.close()
        #expect(sink.sessions.first?.events.count == 30)
        #expect(sink.sessions.first?.events == plainSink.sessions.first?.events)
        #expect(sink.sessions.first?.gaps.isEmpty == true && errors.withLock { $0 }.isEmpty)
    }

    @MainActor @Test func aReducerThatIsNotDeterministicIsCaughtOnStatesWrittenAsText() throws {
        let sink = InMemorySink.inMemory()
        let errors = Locked<[RecorderError]>([])
        let store = Store(
            initialState: TextTicketTaking.State(), reducer: TextTicketTaking(takesTickets: true), recordingTo: sink, session: session(),
            configuration: configuration(errors: errors), execution: .manual)
        let states = (1...40).map { _ in
            store.send(.increment)
            return store.state
        }
        store.recorder?.close()
        let recorded = try #require(sink.sessions.first)
        let first = try #require(errors.withLock { $0 }.first)
        #expect("\(first)".hasPrefix("the reducer is not deterministic"))
        for event in recorded.events {
            #expect(try recorded.state(at: event.step) == JSONValueEncoder().encode(states[event.step - 1]), "step \(event.step)")
        }
        let gapSteps = recorded.gaps.flatMap { Array($0.steps) }
        #expect((recorded.events.map(\.step) + gapSteps).sorted() == Array(1...40))
        #expect(recorded.events.last?.step == 40)
    }
}
