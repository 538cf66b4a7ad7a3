import Atomics
import Foundation
import RewindJSON
import RewindTestSupport
import Testing

@testable import RewindCore

@Suite struct RecorderTests {
    private func session() -> SessionDescriptor {
        SessionDescriptor(name: "counter", flow: "counter", now: { Date(timeIntervalSince1970: 0) })
    }

    @Test func aStoreRecordsEveryStepWithItsCauseAndOutputs() async throws {
        let sink = InMemorySink.inMemory()
        let recorder = Recorder<Counter.State, Counter.Action>(sink: sink, session: session())
        await MainActor.run {
            let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [recorder], execution: .manual)
            store.send(.increment)
            store.send(.didTapDone)
        }
        recorder.close()
        let recorded = try #require(sink.sessions.first)
        #expect(recorded.header.initialState == ["count": 0])
        #expect(recorded.events.map(\.step) == [1, 2, 3])
        #expect(recorded.events.map(\.actionName) == ["increment", "didTapDone", "output"])
        #expect(recorded.events.map(\.cause) == [nil, nil, 2])
        #expect(recorded.events[1].outputs == [["output": ["_0": ["didFinish": ["count": 1]]]]])
        #expect(recorded.events.map(\.origin) == ["counter", "counter", "counter"])
        #expect(try recorded.state(at: 3) == ["count": 1])
        #expect(recorded.events[2].digest == JSONValue.object(["count": 1]).digest)
    }

    @Test func theRecorderHearsOfAStepBeforeTheMiddlewareListedBeforeIt() async throws {
        let sink = InMemorySink.inMemory()
        let recorder = Recorder<Counter.State, Counter.Action>(sink: sink, session: session())
        let seen = await MainActor.run {
            let flusher = FlushingMiddleware(recorder: recorder, sink: sink)
            let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [flusher, recorder], execution: .manual)
            store.send(.increment)
            store.send(.increment)
            return flusher.stepsSeenOnFlush
        }
        recorder.close()
        #expect(seen == [1, 2])
    }

    /// A list whose actions rename one item, in place.
    struct Renamer: Reducer {
        struct State: Codable, Equatable, Sendable { var items: [String] }
        enum Action: Codable, Equatable, Sendable, DescribedAction {
            case rename(Int, String)
            var origin: String { "list" }
        }
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case let .rename(index, title):
                state.items[index] = title
                return .none
            }
        }
    }

    @Test func aRecorderThatHasCaughtUpSharesNoArrayWithTheStore() async throws {
        let sink = InMemorySink.inMemory()
        let recorder = Recorder<Renamer.State, Renamer.Action>(sink: sink, session: session())
        let addresses = await MainActor.run {
            let store = Store(
                initialState: Renamer.State(items: (0..<100).map { "item number \($0) of the list" }), reducer: Renamer(), middleware: [recorder],
                execution: .manual)
            @MainActor func address() -> UInt { store.state.items.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
            var addresses: [UInt] = []
            for index in 0..<3 {
                store.send(.rename(index, "renamed \(index)"))
                recorder.flush()
                addresses.append(address())
            }
            return addresses
        }
        recorder.close()
        // Had the recorder kept the last state, each rename would have copied the array.
        #expect(Set(addresses).count == 1, "renamed in place: \(addresses)")
        let recorded = try #require(sink.sessions.first)
        let expected = ["renamed 0", "renamed 1", "renamed 2"] + (3..<100).map { "item number \($0) of the list" }
        #expect(try recorded.state(at: 3) == JSONValueEncoder().encode(Renamer.State(items: expected)))
        #expect(recorded.events[2].digest == (try JSONValueEncoder().encode(Renamer.State(items: expected))).digest)
    }

    @Test func withoutAClockOfItsOwnASessionIsStampedWithTheSystemTime() throws {
        let sink = InMemorySink.inMemory()
        let recorder = Recorder<Counter.State, Counter.Action>(sink: sink, session: SessionDescriptor(name: nil, flow: "counter"))
        recorder.start(initialState: Counter.State())
        let before = Date()
        recorder.record(.increment, state: Counter.State(count: 1), step: 1)
        let after = Date()
        recorder.close()
        let time = try #require(sink.sessions.first?.events.first?.time)
        #expect(time >= before.addingTimeInterval(-0.001) && time <= after.addingTimeInterval(0.001))
    }

    @Test func codeWithoutAStoreRecordsDirectly() throws {
        let sink = InMemorySink.inMemory()
        let recorder = Recorder<Counter.State, Counter.Action>(sink: sink, session: session())
        recorder.start(initialState: Counter.State())
        recorder.record(.increment, state: Counter.State(count: 1), step: 1)
        recorder.flush()
        #expect(sink.sessions.first?.events.count == 1)
        #expect(sink.sessions.first?.isEnded == false)
        recorder.close()
        #expect(sink.sessions.first?.isEnded == true)
    }

    @Test func flushesAndCountsFromOtherThreadsWhileRecordingLoseNothing() throws {
        let sink = InMemorySink.inMemory()
        var configuration = RecorderConfiguration()
        configuration.capacity = 64
        let recorder = Recorder<Counter.State, Counter.Action>(sink: sink, session: session(), configuration: configuration)
        recorder.start(initialState: Counter.State())
        // One thread records, in a small ring that fills often; three others flush and ask for
        // the dropped count meanwhile, pushing control items between its steps.
        let recording = ManagedAtomic<Bool>(true)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            if thread == 0 {
                for step in 1...4_000 { recorder.record(.increment, state: Counter.State(count: step), step: step) }
                recording.store(false, ordering: .releasing)
            } else {
                while recording.load(ordering: .acquiring) {
                    recorder.flush()
                    _ = recorder.droppedCount
                }
            }
        }
        recorder.close()
        let recorded = sink.sessions[0]
        #expect(recorded.events.map(\.step) == Array(1...4_000))
        #expect(recorded.gaps.isEmpty && recorder.droppedCount == 0)
        for step in [1, 255, 256, 257, 1_000, 3_999, 4_000] {
            #expect(try recorded.state(at: step) == ["count": .int(step)])
        }
    }

    @Test func keyframesComeEveryIntervalAndPatchesBetween() throws {
        let sink = InMemorySink.inMemory()
        var configuration = RecorderConfiguration()
        configuration.keyframeInterval = 4
        let recorder = Recorder<Counter.State, Counter.Action>(sink: sink, session: session(), configuration: configuration)
        recorder.start(initialState: Counter.State())
        for step in 1...9 { recorder.record(.increment, state: Counter.State(count: step), step: step) }
        recorder.close()
        let kinds = sink.sessions[0].events.map { if case .keyframe = $0.state { "k" } else { "p" } }
        #expect(kinds == ["k", "p", "p", "k", "p", "p", "p", "k", "p"])
        for step in 0...9 { #expect(try sink.sessions[0].state(at: step) == ["count": .int(step)]) }
    }

    @Test func underBackPressureNothingIsLost() throws {
        let sink = GatedSink()
        var configuration = RecorderConfiguration()
        configuration.capacity = 4
        configuration.overflow = .block
        let recorder = Recorder<Counter.State, Counter.Action>(sink: sink, session: session(), configuration: configuration)
        recorder.start(initialState: Counter.State())
        let produced = DispatchSemaphore(value: 0)
        let producer = Thread {
            for step in 1...200 { recorder.record(.increment, state: Counter.State(count: step), step: step) }
            produced.signal()
        }
        producer.start()
        sink.waitUntilBlocked()
        sink.open()
        produced.wait()
        recorder.close()
        #expect(recorder.droppedCount == 0)
        #expect(sink.memory.sessions[0].events.map(\.step) == Array(1...200))
        #expect(sink.memory.sessions[0].gaps.isEmpty)
    }

    /// A recorder that drops when full, whose sink holds its first write (step 1's) until
    /// opened: steps 2 through `last` meet a writer that does not move.
    private func recordWhileTheWriterIsStuck(capacity: Int, through last: Int) -> (GatedSink, Recorder<Counter.State, Counter.Action>) {
        let sink = GatedSink()
        var configuration = RecorderConfiguration()
        configuration.capacity = capacity
        configuration.overflow = .dropWithGapMarker
        let recorder = Recorder<Counter.State, Counter.Action>(sink: sink, session: session(), configuration: configuration)
        recorder.start(initialState: Counter.State())
        recorder.flush()
        recorder.record(.increment, state: Counter.State(count: 1), step: 1)
        sink.waitUntilBlocked()
        for step in 2...last { recorder.record(.increment, state: Counter.State(count: step), step: step) }
        return (sink, recorder)
    }

    @Test func droppedStepsAreCountedAndMarkedAsAGap() throws {
        let capacity = 4
        let (sink, recorder) = recordWhileTheWriterIsStuck(capacity: capacity, through: 200)
        sink.open()
        recorder.flush()
        recorder.record(.increment, state: Counter.State(count: 201), step: 201)
        recorder.close()

        // How many steps get through before the queue is full depends on when the encoder
        // thread takes them; what cannot vary is that each step is either stored or in a gap.
        let recorded = sink.memory.sessions[0]
        let gapSteps = recorded.gaps.flatMap { Array($0.steps) }
        let stored = recorded.events.map(\.step)
        #expect(Set(gapSteps).isDisjoint(with: stored))
        #expect((gapSteps + stored).sorted() == Array(1...201))
        #expect(recorder.droppedCount == gapSteps.count)
        #expect(gapSteps.count >= 200 - 4 * capacity, "the queue, the encoder and its hand-off hold a batch each")
        #expect(stored.prefix(5) == [1, 2, 3, 4, 5] && stored.last == 201)
        #expect(recorded.gaps.allSatisfy { $0.reason == "the recorder's queue was full: its encoder thread fell behind" })
        for gap in recorded.gaps {
            let next = recorded.events.first { $0.step > gap.steps.upperBound }
            guard case .keyframe = next?.state else {
                Issue.record("the first step after a gap must be a keyframe")
                return
            }
        }
        #expect(try recorded.state(at: 201) == ["count": 201])
    }

    @Test func stepsDroppedAtTheEndAreMarkedWhenClosing() {
        let (sink, recorder) = recordWhileTheWriterIsStuck(capacity: 1, through: 2)
        // With the writer stuck on step 1 and a capacity of one, one step each fits in the
        // encoder's hand-off, in the encoder and in the queue. Which steps get there depends
        // on when the napping encoder wakes, so steps go on until three are in; every step
        // after that must be dropped, and the gap that holds them is written on close.
        var last = 2
        while last - 1 - recorder.droppedCount < 3 {
            last += 1
            recorder.record(.increment, state: Counter.State(count: last), step: last)
        }
        for _ in 1...5 {
            last += 1
            recorder.record(.increment, state: Counter.State(count: last), step: last)
        }
        sink.open()
        recorder.close()
        let stored = sink.memory.sessions[0].events.map(\.step)
        let gaps = sink.memory.sessions[0].gaps.map(\.steps)
        #expect((stored + gaps.flatMap { Array($0) }).sorted() == Array(1...last))
        #expect(stored.count == 4)
        #expect(gaps.last.map { $0.upperBound == last && $0.lowerBound <= last - 4 } == true, "the last five steps end a gap")
    }

    @Test func recordsAfterCloseAreIgnoredEvenWhenTheQueueIsFull() {
        let sink = InMemorySink.inMemory()
        var configuration = RecorderConfiguration()
        configuration.capacity = 1
        let recorder = Recorder<Counter.State, Counter.Action>(sink: sink, session: session(), configuration: configuration)
        recorder.start(initialState: Counter.State())
        recorder.close()
        for step in 1...10 { recorder.record(.increment, state: Counter.State(count: step), step: step) }
        recorder.flush()
        #expect(sink.sessions[0].events.isEmpty)
    }

    @Test func aFailingSinkIsReportedAndItsLostStepsBecomeAGap() throws {
        let sink = GatedSink(failingAppends: 1)
        let errors = Locked<[String]>([])
        var configuration = RecorderConfiguration()
        configuration.onError = { error in errors.withLock { $0.append("\(error)") } }
        let recorder = Recorder<Counter.State, Counter.Action>(sink: sink, session: session(), configuration: configuration)
        sink.open()
        recorder.start(initialState: Counter.State())
        recorder.record(.increment, state: Counter.State(count: 1), step: 1)
        recorder.flush()
        recorder.record(.increment, state: Counter.State(count: 2), step: 2)
        recorder.close()

        #expect(errors.withLock { $0 } == ["disk full"])
        let recorded = sink.memory.sessions[0]
        #expect(recorded.events.map(\.step) == [2])
        #expect(recorded.gaps == [RecordingGap(steps: 1...1, reason: "the log could not be written (disk full)")])
        #expect(try recorded.state(at: 2) == ["count": 2])
    }
}

/// An in-memory sink whose appends wait until opened, and can fail a number of times first.
final class GatedSink: RecordingSink {
    let memory = InMemorySink()
    private let condition = NSCondition()
    private var isOpen = false
    private var isBlocked = false
    private var failuresLeft: Int

    struct DiskFull: Error, CustomStringConvertible { var description: String { "disk full" } }

    init(failingAppends: Int = 0) {
        failuresLeft = failingAppends
    }

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the writer is stuck in an append.
    func waitUntilBlocked() {
        condition.lock()
        while !isBlocked { condition.wait() }
        condition.unlock()
    }

    func beginSession(_ header: SessionHeader) throws -> Int {
        try memory.beginSession(header)
    }

    func append(_ events: [RecordedEvent], gaps: [RecordingGap], redactedPaths: Set<String>, to session: Int) throws {
        condition.lock()
        while !isOpen {
            isBlocked = true
            condition.broadcast()
            condition.wait()
        }
        let fails = failuresLeft > 0
        if fails { failuresLeft -= 1 }
        condition.unlock()
        if fails { throw DiskFull() }
        try memory.append(events, gaps: gaps, redactedPaths: redactedPaths, to: session)
    }

    func endSession(_ session: Int) throws {
        try memory.endSession(session)
    }
}

extension GatedSink: @unchecked Sendable {}

@Suite struct UnencodableStateTests {
    struct Measurement: Codable, Equatable, Sendable { var value: Double }
    enum Tick: String, Codable, Equatable, Sendable, DescribedAction {
        case tick
        var origin: String { "test" }
    }

    @Test func anInitialStateThatCannotBeEncodedIsReportedAndNothingPilesUp() {
        let errors = Locked(0)
        var configuration = RecorderConfiguration()
        configuration.onError = { _ in errors.withLock { $0 += 1 } }
        let sink = InMemorySink.inMemory()
        let recorder = Recorder<Measurement, Tick>(sink: sink, session: SessionDescriptor(name: "nan", flow: "test"), configuration: configuration)
        recorder.start(initialState: Measurement(value: .nan))
        recorder.record(.tick, state: Measurement(value: 1), step: 1)
        recorder.close()
        #expect(errors.withLock { $0 } == 1)
        #expect(sink.sessions.isEmpty)
    }
}

/// Flushes the recorder after each step and notes the last step the sink then holds.
@MainActor
private final class FlushingMiddleware: StoreMiddleware {
    let recorder: Recorder<Counter.State, Counter.Action>
    let sink: InMemorySink
    private(set) var stepsSeenOnFlush: [Int] = []

    init(recorder: Recorder<Counter.State, Counter.Action>, sink: InMemorySink) {
        self.recorder = recorder
        self.sink = sink
    }

    func didReduce(_ action: Counter.Action, state: Counter.State, context: StepContext, outputs: [Counter.Action]) {
        recorder.flush()
        stepsSeenOnFlush.append(sink.sessions.first?.events.last?.step ?? 0)
    }
}

/// States without a writer of their own are encoded as trees, and handed to the writer as
/// patches that it applies to its own tree: every state stored comes back as it was.
@Suite struct TreeStateRecordingTests {
    struct Card: Codable, Equatable, Sendable {
        var id: Int
        var title: String
        var score: Double
    }

    struct Board: Codable, Equatable, Sendable {
        var name: String
        var cards: [Card]
    }

    enum Edit: Codable, Equatable, Sendable, DescribedAction {
        case edit
        case rate(Double)
        var origin: String { "test" }
    }

    /// A sequence of boards, each a small edit of the one before.
    static func boards(count: Int, seed: UInt64) -> [Board] {
        var board = Board(name: "board", cards: (0..<40).map { Card(id: $0, title: "card \($0)", score: 0) })
        var boards: [Board] = []
        for step in 1...count {
            // Spread over the cards and the kinds of edit, differently for each seed.
            let index = (step * 7_919 + Int(seed) * 31) % board.cards.count
            switch (step * 13 + Int(seed) * 5) % 6 {
            case 0: board.cards.append(Card(id: 100 + step, title: "new", score: 1))
            case 1: if board.cards.count > 1 { board.cards.remove(at: index) }
            case 2: board.name = "board \(step)"
            default: board.cards[index].title = "edit \(step)"
            }
            boards.append(board)
        }
        return boards
    }

    @Test(arguments: [1, 2])
    func everyStateComesBackAcrossKeyframesLostWritesAndUnencodableStates(seed: UInt64) throws {
        let sink = GatedSink(failingAppends: 1)
        var configuration = RecorderConfiguration()
        configuration.keyframeInterval = 16
        let recorder = Recorder<Board, Edit>(
            sink: sink, session: SessionDescriptor(name: "board", flow: "board"), configuration: configuration)
        sink.open()
        let boards = Self.boards(count: 120, seed: seed)
        recorder.start(initialState: Board(name: "board", cards: (0..<40).map { Card(id: $0, title: "card \($0)", score: 0) }))
        for (index, board) in boards.enumerated() {
            var state = board
            // Step 70's state cannot be encoded, nor step 50's action (after its state was): each
            // becomes a gap, and the next state goes whole.
            if index + 1 == 70 { state.cards[0].score = .nan }
            recorder.record(index + 1 == 50 ? .rate(.nan) : .edit, state: state, step: index + 1)
            // The first flush's write fails: its steps become a gap, and the next is a keyframe.
            if index + 1 == 30 { recorder.flush() }
        }
        recorder.close()
        let recorded = sink.memory.sessions[0]
        #expect(recorded.gaps.map(\.steps) == [1...30, 50...50, 70...70])
        #expect(recorded.events.map(\.step) == Array(31...49) + Array(51...69) + Array(71...120))
        let encoder = JSONValueEncoder()
        for step in [31, 32, 47, 48, 49, 51, 52, 64, 65, 69, 71, 72, 100, 120] {
            #expect(try recorded.state(at: step) == encoder.encode(boards[step - 1]), "step \(step)")
        }
        for event in recorded.events {
            #expect(event.digest == (try encoder.encode(boards[event.step - 1])).digest, "step \(event.step)")
        }
        let keyframes = recorded.events.filter { if case .keyframe = $0.state { true } else { false } }.map(\.step)
        // Not 32 nor 80: one patch, or nine, since a keyframe weigh less than a quarter of it.
        #expect(keyframes == [31, 48, 51, 64, 71, 96, 112])
    }
}

/// The writer's side of a tree handed over as patches: one that does not apply loses its step
/// and every patch after it, until a tree comes whole.
@Suite struct RecorderWriterPatchTests {
    static func step(_ number: Int, _ state: EncodedValue) -> RecorderWriter.Item {
        .step(
            EncodedStep(
                step: number, time: Date(timeIntervalSince1970: 0), origin: "test", actionName: "edit", action: .bytes(Array(#""edit""#.utf8)),
                cause: nil, outputs: [], sends: [], runs: [], digest: StateDigest(rawValue: 0), state: state))
    }

    @Test func aPatchThatDoesNotApplyLosesItsStepsUntilATreeComesWhole() throws {
        let sink = InMemorySink()
        let errors = Locked<[String]>([])
        var configuration = RecorderConfiguration()
        configuration.onError = { error in errors.withLock { $0.append("\(error)") } }
        let writer = RecorderWriter(sink: sink, configuration: configuration)
        let initial: JSONValue = ["items": [1, 2]]
        let header = SessionHeader(
            name: "s", flow: "f", startedAt: Date(timeIntervalSince1970: 0), schemaVersion: 1, initialState: initial,
            initialDigest: initial.digest, redactedPaths: [])
        let outcome = writer.write(
            [
                [
                    .begin(header),
                    Self.step(1, .patch(JSONPatch([.set(JSONPath("items[1]"), 3)]))),
                    Self.step(2, .patch(JSONPatch([.set(JSONPath("items[5]"), 4)]))),
                    Self.step(3, .patch(JSONPatch([.set(JSONPath("items[0]"), 5)]))),
                    Self.step(4, .tree(["items": [7]])),
                    Self.step(5, .patch(JSONPatch([.set(JSONPath("items[0]"), 8)]))),
                    .finish,
                ]
            ], completeTicket: {})
        #expect(outcome == .finished)
        let recorded = sink.sessions[0]
        #expect(recorded.events.map(\.step) == [1, 4, 5])
        #expect(recorded.gaps.map(\.steps) == [2...3])
        #expect(
            recorded.gaps.first?.reason
                == "the recorder could not apply its own patch to the state before "
                + "(cannot apply patch operation 0: no element 5 in the array at items, which has 2)")
        #expect(try recorded.state(at: 1) == ["items": [1, 3]])
        #expect(try recorded.state(at: 5) == ["items": [8]])
        #expect(errors.withLock { $0.count } == 1)
    }
}
