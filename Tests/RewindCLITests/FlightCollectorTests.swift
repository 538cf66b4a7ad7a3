import Foundation
import PhotoApp
import RewindCore
import RewindLog
import RewindTestSupport
import RewindUpload
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A flight recorder sending to the real collector, into a log and into PostgreSQL: a session
/// uploaded while it is recorded (its last block sent again as it grows), trimmed past what
/// the collector holds between two reports, and replayed from the collector's link.
@MainActor @Suite(.serialized, .serversBuild) struct FlightCollectorTests {
    @Test func aReportedSessionGrowsAndTrimsIntoTheCollectorAndReplaysFromItInALog() async throws {
        try await aReportedSessionGrowsAndTrimsIntoTheCollectorAndReplaysFromIt(postgres: false)
    }

    @Test(.postgres) func aReportedSessionGrowsAndTrimsIntoTheCollectorAndReplaysFromItInPostgreSQL() async throws {
        try await aReportedSessionGrowsAndTrimsIntoTheCollectorAndReplaysFromIt(postgres: true)
    }

    private func aReportedSessionGrowsAndTrimsIntoTheCollectorAndReplaysFromIt(postgres: Bool) async throws {
        let store = postgres ? try FreshStore() : nil
        let collector = try await RunningCollector(store: store?.url)
        let folder = try TemporaryDirectory()
        let flight = try FlightRecorder<LoginState, LoginAction>(
            log: folder.path("device.rewind"), retention: .lastSteps(300), session: SessionDescriptor(name: "grown", flow: "login"),
            triggers: [.action("signup") { $0 == .didTapSignup }],
            uploadingTo: CollectorClient(root: URL(string: collector.url)!, token: collector.upload))
        let login = Store(
            initialState: LoginState(), reducer: LoginFeature(backend: FakeBackend(seed: 1, clock: SimulatedClock(start: .testEpoch))),
            middleware: flight.middleware)
        func type(_ count: Int) { for index in 0..<count { login.send(.didUpdateUsername("u\(index)")) } }

        type(40)
        login.send(.didTapSignup)  // step 41, and its output 42: the first block is open
        type(10)
        flight.report(reason: "again")  // the same block, grown to step 52
        let first = await flight.settle()
        var through = try first.map { try $0.result.get().storedThrough }
        #expect(through.count == 2 && through.last == 52, "\(through)")
        // Each upload came with a link to the report, for the bug the app files.
        let shared = try #require(first.last?.link)
        #expect(shared.absoluteString.hasPrefix("\(collector.url)/s/\(flight.sessionID.uuidString)?expires="), "\(shared)")
        let (_, answer) = try await URLSession.shared.data(from: shared)
        #expect((answer as? HTTPURLResponse)?.statusCode == 200)
        type(3_000)  // trims past step 52
        flight.report(reason: "once more")
        through = try await flight.settle().map { try $0.result.get().storedThrough }
        #expect(through == [3_052])
        await flight.close()

        let link = "\(collector.url)/sessions/\(flight.sessionID.uuidString)"
        let replayed = try await TeamStoreBuild.run(["replay", link], environment: ["REWIND_TOKEN": collector.read])
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
        #expect(replayed.stdout.contains(" (grown): ") && replayed.stdout.contains(" steps replayed, every state matches"), "\(replayed.stdout)")
        let pulled = folder.path("pulled.rewind")
        #expect(try await TeamStoreBuild.run(["pull", link, "--output", pulled], environment: ["REWIND_TOKEN": collector.read]).status == 0)
        let check = try await TeamStoreBuild.run(["check", pulled])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(check.stdout.contains("  gaps       ok       steps 53 through "), "\(check.stdout)")
        let sessions = try await TeamStoreBuild.run(["sessions", pulled])
        #expect(sessions.stdout.hasSuffix("  at step 41: signup\n"), "\(sessions.stdout)")
    }

    @Test func aBlockSentAgainWithAHeldStepChangedIsRefusedInALog() async throws { try await aBlockSentAgainWithAHeldStepChangedIsRefused(postgres: false) }

    @Test(.postgres) func aBlockSentAgainWithAHeldStepChangedIsRefusedInPostgreSQL() async throws {
        try await aBlockSentAgainWithAHeldStepChangedIsRefused(postgres: true)
    }

    private func aBlockSentAgainWithAHeldStepChangedIsRefused(postgres: Bool) async throws {
        let store = postgres ? try FreshStore() : nil
        let collector = try await RunningCollector(store: store?.url)
        let folder = try TemporaryDirectory()
        let id = UUID()
        // Recordings of one session id, on a clock that stands still: steps 1-10, steps 1-12
        // (the first grown), and steps 1-14 whose step 3 differs.
        func copy(_ name: String, steps: Int, changing changed: Int?) throws -> StoredSessionCopy {
            let path = folder.path("\(name).rewind")
            let recorder = Recorder<Int, Tick>(
                sink: try SQLiteSink(path: path), session: SessionDescriptor(name: "ticks", flow: "test", now: { .testEpoch }, id: id))
            recorder.start(initialState: 0)
            for step in 1...steps { recorder.record(step == changed ? .tock : .tick, state: step, step: step) }
            recorder.flush()
            let reader = try LogReader(path: path)
            let copy = try reader.storedCopy(of: try reader.session("1"))
            recorder.close()
            return copy
        }
        let held = try copy("held", steps: 10, changing: nil)
        let first = try await collector.request("POST", "/v1/sessions/\(id.uuidString)/blocks", token: collector.upload, body: Data(held.uploadBody()))
        #expect(first.status == 200, "\(String(decoding: first.body, as: UTF8.self))")
        let grown = try copy("grown", steps: 12, changing: nil)
        let changed = try copy("changed", steps: 14, changing: 3)
        let refused = try await collector.request(
            "POST", "/v1/sessions/\(id.uuidString)/blocks", token: collector.upload, body: Data(changed.uploadBody()))
        #expect(refused.status == 409 && RunningCollector.errorCode(refused.body) == "conflict", "\(String(decoding: refused.body, as: UTF8.self))")
        let accepted = try await collector.request(
            "POST", "/v1/sessions/\(id.uuidString)/blocks", token: collector.upload, body: Data(grown.uploadBody()))
        #expect(accepted.status == 200, "\(String(decoding: accepted.body, as: UTF8.self))")
        #expect(String(decoding: accepted.body, as: UTF8.self).contains(#""stored_through":12"#), "\(String(decoding: accepted.body, as: UTF8.self))")
    }
}

/// A counter's action, for sessions built step by step.
enum Tick: String, Codable, Equatable, Sendable, DescribedAction {
    case tick, tock
}
