import Foundation
import RewindCore
import RewindTesting
import Testing

/// `TestStore` on a small reducer of its own: what passes, and each thing left unsaid failing
/// with the words that name its step.
@MainActor
@Suite struct TestStoreTests {
    struct Item: Codable, Equatable, Sendable, Identifiable {
        var id: Int
        var title: String

        // As Identifiable models often say: the store compares what is recorded, not this.
        static func == (lhs: Item, rhs: Item) -> Bool { lhs.id == rhs.id }
    }

    enum Status: Codable, Equatable, Sendable {
        case idle, loading
        case loaded(Int)
    }

    struct State: Codable, Equatable, Sendable {
        var count = 0
        var items = [Item(id: 1, title: "Milk"), Item(id: 2, title: "Eggs")]
        var password = Secret("")
        var status = Status.idle
    }

    enum Output: Codable, Equatable, Sendable {
        case done(count: Int)
    }

    enum Action: Codable, Equatable, Sendable, DescribedAction, OutputAction {
        case increment
        case rename(id: Int, title: String)
        case typePassword(Secret)
        case load
        case loaded(Int)
        case finish
        case output(Output)
    }

    struct Feature: Reducer {
        /// The answer the load's work sends back, after `gate` lets it.
        var answer: @Sendable () async -> Int = { 42 }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .increment:
                state.count += 1
                return .none
            case let .rename(id, title):
                if let index = state.items.firstIndex(where: { $0.id == id }) { state.items[index].title = title }
                return .none
            case let .typePassword(password):
                state.password = password
                return .none
            case .load:
                state.status = .loading
                return .run(name: "items.load") { [answer] send in await send(.loaded(await answer())) }
            case let .loaded(count):
                state.status = .loaded(count)
                return .none
            case .finish:
                return .merge(.send(.increment), .output(.done(count: state.count)))
            case .output:
                return .none
            }
        }
    }

    /// The messages of the issues `body` records, which must record at least one.
    func failures(_ body: () async -> Void) async -> [String] {
        let messages = Messages()
        await withKnownIssue {
            await body()
        } matching: { issue in
            messages.append(issue.comments.map(\.rawValue).joined(separator: "\n"))
            return true
        }
        return messages.all
    }

    final class Messages: @unchecked Sendable {
        // Read and changed under `lock`: the matcher may run on any thread.
        private let lock = NSLock()
        private var messages: [String] = []

        // lock() and unlock(), not withLock, which is macOS 14's.
        func append(_ message: String) {
            lock.lock()
            defer { lock.unlock() }
            messages.append(message)
        }

        var all: [String] {
            lock.lock()
            defer { lock.unlock() }
            return messages
        }
    }

    @Test func aStepThatChangesWhatItsClosureSaysPasses() async {
        let store = TestStore(initialState: State(), reducer: Feature())
        store.send(.increment) { $0.count = 1 }
        store.send(.rename(id: 2, title: "Oat milk")) { $0.items[id: 2]?.title = "Oat milk" }
        #expect(store.step == 2)
        await store.finish()
    }

    @Test func aFieldTheClosureDoesNotSetFailsWithTheDiffExpectedAgainstActual() async {
        let store = TestStore(initialState: State(), reducer: Feature())
        let messages = await failures {
            store.send(.rename(id: 2, title: "Oat milk"))
        }
        #expect(
            messages == [
                """
                step 1 (rename): the state changed and the test says it does not (expected → actual):
                  ~ items[id=2].title: "Eggs" → "Oat milk"
                """
            ])
    }

    @Test func aWrongValueFailsEvenWhereEqualitySaysTheElementsAreEqual() async {
        let store = TestStore(initialState: State(), reducer: Feature())
        let messages = await failures {
            store.send(.rename(id: 1, title: "Oat milk")) { $0.items[id: 1]?.title = "Almond milk" }
        }
        #expect(
            messages == [
                """
                step 1 (rename): the state differs from what the test says (expected → actual):
                  ~ items[id=1].title: "Almond milk" → "Oat milk"
                """
            ])
    }

    @Test func aSecretComparesByItsPlaceholderSoATestNeedsNoClearValue() async {
        let store = TestStore(initialState: State(), reducer: Feature())
        store.send(.typePassword(Secret("hunter22"))) { $0.password = Secret(redactedLength: 8) }
        let messages = await failures {
            store.send(.typePassword(Secret("hunter2"))) { $0.password = Secret(redactedLength: 8) }
        }
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("step 2 (typePassword): the state differs") == true)
    }

    @Test func effectsRunUnderTheTestAndTheirActionsAreReceivedInOrder() async {
        let store = TestStore(initialState: State(), reducer: Feature(answer: { 7 }))
        store.send(.load, starts: ["items.load"]) { $0.status = .loading }
        await store.receive(.loaded(7)) { $0.status = .loaded(7) }
        await store.finish()
    }

    @Test func anActionSentBackAndNotReceivedFailsAtTheNextSendNamingIt() async {
        let store = TestStore(initialState: State(), reducer: Feature(answer: { 7 }))
        store.send(.load) { $0.status = .loading }
        let isLoaded: (Action) -> Bool = { if case .loaded = $0 { true } else { false } }
        await store.receive(where: isLoaded) { $0.status = .loaded(7) }
        store.send(.finish)
        let messages = await failures {
            store.send(.increment) { $0.count = 2 }
        }
        #expect(
            messages == [
                "step 4, before send(increment): the action increment that step 3 sends was not received: assert it with receive(…)",
                "step 5, before send(increment): the output output(done(…)) that step 3 emits was not received: assert it with receive(…)",
            ])
    }

    @Test func outputsAreReceivedAsTheActionsAStoreDispatches() async {
        let store = TestStore(initialState: State(), reducer: Feature())
        store.send(.finish)
        await store.receive(.increment) { $0.count = 1 }
        await store.receive(.output(.done(count: 0)))
        await store.finish()
    }

    @Test func workStillRunningAtTheEndFailsAndIsCancelled() async {
        let (stream, _) = AsyncStream<Int>.makeStream()
        let store = TestStore(initialState: State(), reducer: Feature(answer: { await stream.first { _ in true } ?? -1 }))
        store.send(.load) { $0.status = .loading }
        let messages = await failures {
            await store.finish(timeout: .milliseconds(50))
        }
        #expect(messages == [#"at the end: "items.load" started by step 1 is still running after 0.05 seconds; cancelled"#])
    }

    @Test func byNameTheWorkAStepStartsIsAssertedAndItsResultDelivered() async {
        let store = TestStore(
            initialState: State(),
            reducer: Feature(answer: {
                Issue.record("the work ran")
                return 0
            }), effects: .byName)
        store.send(.load, starts: ["items.load"]) { $0.status = .loading }
        store.deliver(.loaded(3), from: "items.load") { $0.status = .loaded(3) }
        await store.finish()
    }

    @Test func byNameWorkLeftUnsaidAndAResultOfWorkNeverStartedFail() async {
        let store = TestStore(initialState: State(), reducer: Feature(), effects: .byName)
        let messages = await failures {
            store.send(.load) { $0.status = .loading }
            store.deliver(.loaded(3), from: "items.save") { $0.status = .loaded(3) }
        }
        #expect(
            messages == [
                #"step 1 (load) starts ["items.load"], which the test does not assert: send(…, starts: ["items.load"])"#,
                #"step 2: deliver(loaded(3)) from "items.save", which no step started (started: "items.load")"#,
            ])
        #expect(store.state.status == .loaded(3))
    }

    @Test func nonExhaustiveComparesOnlyWhatTheClosureSetsAndLetsReceivedActionsPass() async {
        let store = TestStore(initialState: State(), reducer: Feature(), effects: .byName, exhaustivity: .off)
        store.send(.finish)
        store.send(.rename(id: 1, title: "Oat milk")) { $0.items[id: 1]?.title = "Oat milk" }
        #expect(store.state.count == 1)
        let messages = await failures {
            store.send(.increment) { $0.count = 5 }
        }
        #expect(
            messages == [
                """
                step 5 (increment): the state differs from what the test says (expected → actual):
                  ~ count: 5 → 2
                """
            ])
        await store.finish()
    }

    @Test func aStepNumberedAsTheRecordingTheTestStartsFrom() async {
        let store = TestStore(initialState: State(), reducer: Feature(), step: 40)
        let messages = await failures { store.send(.increment) }
        #expect(messages.first?.hasPrefix("step 41 (increment):") == true)
    }
}
