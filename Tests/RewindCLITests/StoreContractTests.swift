import Foundation
import RewindCore
import RewindLog
import RewindTestSupport
import Testing

/// The contract every store keeps, the same cases run against a log, PostgreSQL and a running
/// collector through ``SessionStore`` alone, each opened from its location: a copy that holds more than the store
/// extends the session, one that holds the same or less changes nothing and says so, one
/// that disagrees is refused naming its steps, another app's is refused, and a verdict is kept
/// for a session the store holds.
@MainActor
@Suite struct StoreContractTests {
    /// One case of the contract, named as the test output lists it.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var body: @MainActor @Sendable (ContractStore, GrownSession) async throws -> Void
        var testDescription: String { name }
    }

    @Test(arguments: Self.cases) func aLog(_ contract: Case) async throws {
        try await Self.run(contract, on: .log)
    }

    @Test(.postgres, .teamStoreLibrary, .serialized, arguments: Self.cases) func postgreSQL(_ contract: Case) async throws {
        try await Self.run(contract, on: .postgreSQL)
    }

    @Test(.serversBuild, arguments: Self.cases) func aCollector(_ contract: Case) async throws {
        try await Self.run(contract, on: .collector)
    }

    private static func run(_ contract: Case, on kind: ContractStore.Kind) async throws {
        let folder = try TemporaryDirectory()
        let session = try GrownSession(in: folder, app: ContractStore.app)
        try await ContractStore.with(kind) { store in try await contract.body(store, session) }
    }

    nonisolated static let cases: [Case] = [
        Case(name: "a new session is added whole") { store, session in
            #expect(try await store.opened.receive(session.whole).outcome == .added(steps: GrownSession.steps))
            try await expectHeld(session.whole, in: store)
        },
        Case(name: "the same copy again changes nothing") { store, session in
            _ = try await store.opened.receive(session.whole)
            #expect(try await store.opened.receive(session.whole).outcome == .held(storedThrough: GrownSession.steps))
            try await expectHeld(session.whole, in: store)
        },
        Case(name: "a copy that holds more extends the session") { store, session in
            #expect(try await store.opened.receive(session.early).outcome == .added(steps: GrownSession.earlySteps))
            let progress = try await store.opened.progress(of: session.whole.id)
            #expect(progress?.storedThrough == GrownSession.earlySteps && progress?.ended == false)
            let extended = try await store.opened.receive(session.whole).outcome
            #expect(extended == .extended(steps: GrownSession.steps - GrownSession.earlySteps, storedThrough: GrownSession.steps))
            try await expectHeld(session.whole, in: store)
        },
        Case(name: "an older copy changes nothing") { store, session in
            _ = try await store.opened.receive(session.whole)
            #expect(try await store.opened.receive(session.early).outcome == .held(storedThrough: GrownSession.steps))
            try await expectHeld(session.whole, in: store)
        },
        Case(name: "a copy that disagrees is refused, naming its steps") { store, session in
            _ = try await store.opened.receive(session.whole)
            let first = session.disagreeing.blocks[0]
            try await expectRefusal(.conflict, naming: "the block of steps 1 through \(first.lastStep)") {
                try await store.opened.receive(session.disagreeing)
            }
            try await expectHeld(session.whole, in: store)
        },
        Case(name: "a shorter copy that disagrees is refused") { store, session in
            // The early copy's last block, its last record changed: a prefix no more.
            _ = try await store.opened.receive(session.whole)
            var early = session.early
            let last = early.blocks.count - 1
            early.blocks[last] = try GrownSession.changingLastRecord(of: early.blocks[last])
            try await expectRefusal(.conflict, naming: "the block of steps \(early.blocks[last].firstStep) through \(early.blocks[last].lastStep)") {
                try await store.opened.receive(early)
            }
            try await expectHeld(session.whole, in: store)
        },
        Case(name: "another app's session is refused") { store, session in
            _ = try await store.opened.receive(session.early)
            var other = session.whole
            let destination = try await store.store(forApp: "another", sending: &other)
            try await expectRefusal(.otherApp, naming: "as another app's") { try await destination.receive(other) }
            #expect(try await store.held(session.whole.id)?.summary.lastStep == GrownSession.earlySteps)
        },
        Case(name: "a verdict is kept for a session held, and only then") { store, session in
            let verdict = ReplayVerdict(outcome: .diverged, step: 12, build: "abc123", at: Date(timeIntervalSince1970: 1_700_000_000))
            #expect(try await store.verdicts.record(verdict, for: session.whole.id) == false)
            _ = try await store.opened.receive(session.whole)
            #expect(try await store.verdicts.record(verdict, for: session.whole.id))
            let kept = try #require(try await store.held(session.whole.id).flatMap { ReplayVerdict(tags: $0.metadata.tags) })
            // A collector keeps the time it heard the verdict, not a client's.
            #expect(kept.outcome == verdict.outcome && kept.step == verdict.step && kept.build == verdict.build)
            #expect(store.kind == .collector || kept.at == verdict.at)
        },
        Case(name: "a session is read by its number, its UUID and its name") { store, session in
            _ = try await store.opened.receive(session.whole)
            let reading = try await store.reader(session.whole.id)
            let listed = try #require(try await reading.sessions(matching: SessionFilter()).first { $0.id == session.whole.id })
            for selector in ["\(listed.number)", session.whole.id.uuidString, try #require(listed.name)] {
                let readable = try await reading.readable(SessionSelection(.one(selector)))
                defer { readable.discard() }
                #expect(try LogReader(path: readable.path).session(selector).id == session.whole.id, "\(selector)")
            }
        },
        Case(name: "a selector that names no session is refused in one line") { store, session in
            _ = try await store.opened.receive(session.whole)
            let reading = try await store.reader(session.whole.id)
            do {
                let readable = try await reading.readable(SessionSelection(.one("nope")))
                defer { readable.discard() }
                let found = try LogReader(path: readable.path).session("nope")
                Issue.record("found \(found.label)")
            } catch {
                let line = "\(error)"
                #expect(line.contains("no session nope (the ") && !line.contains("\n"), "\(line)")
            }
        },
        Case(name: "pages list every session once, newest first") { store, session in
            var ids: [UUID] = []
            for offset in 0..<3 {
                var copy = session.whole
                copy.id = UUID()
                copy.summary.startedAt = copy.summary.startedAt.addingTimeInterval(Double(offset))
                _ = try await store.opened.receive(copy)
                ids.append(copy.id)
            }
            // A collector reads the one session its location names.
            let reading = try await store.reader(ids[2])
            let expected = store.kind == .collector ? [ids[2]] : ids.reversed()
            var listed: [UUID] = []
            var cursor: SessionPage.Cursor?
            repeat {
                let page = try await reading.sessions(matching: SessionFilter(), after: cursor, limit: 2)
                #expect(page.sessions.count <= 2)
                listed += page.sessions.compactMap(\.id)
                cursor = page.next
            } while cursor != nil && listed.count <= expected.count
            #expect(listed == expected)
        },
        Case(name: "a damaged block is said, never read as steps") { store, session in
            _ = try await store.opened.receive(session.whole)
            let block = session.whole.blocks[session.whole.blocks.count / 2]
            try await store.damage(session.whole.id, block.firstStep)
            let reading = try await store.reader(session.whole.id)
            do {
                let readable = try await reading.readable(SessionSelection(.one(session.whole.id.uuidString)))
                defer { readable.discard() }
                let reader = try LogReader(path: readable.path)
                let held = try reader.session(session.whole.id.uuidString)
                let events = try reader.events(of: held, steps: 1...held.lastStep)
                Issue.record("read \(events.count) steps of a damaged block")
            } catch {
                #expect("\(error)".contains("damaged") || "\(error)".contains("checksum"), "\(error)")
            }
        },
    ]

    /// The store holds `copy`'s blocks, end and steps, and says so of its progress.
    private static func expectHeld(_ copy: StoredSessionCopy, in store: ContractStore) async throws {
        let held = try #require(try await store.held(copy.id))
        #expect(held.blocks == copy.blocks)
        #expect(held.summary.lastStep == copy.summary.lastStep && held.summary.eventCount == copy.summary.eventCount)
        #expect(held.summary.endedAt == copy.summary.endedAt)
        let progress = try await store.opened.progress(of: copy.id)
        #expect(progress?.storedThrough == copy.summary.lastStep && progress?.ended == (copy.summary.endedAt != nil))
    }

    private static func expectRefusal(_ kind: UploadError.Kind, naming text: String, _ body: () async throws -> ReceivedBlocks) async throws {
        do {
            let received = try await body()
            Issue.record("taken, not refused: \(received)")
        } catch let error as UploadError {
            #expect(error.kind == kind && error.message.contains(text), "\(error)")
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a test only in a test bundle built with the `Servers` trait, which has the team
    /// store (without it, opening a `postgres://` location throws `.notBuilt`).
    fileprivate static var teamStoreLibrary: Self {
        #if Servers
        .enabled(if: true)
        #else
        .enabled(if: false, "needs the team store built in: swift test --traits Servers")
        #endif
    }
}
