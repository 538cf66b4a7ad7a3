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
}
