import Foundation
import PhotoApp
import RewindCore
import RewindJSON
import Testing

@testable import RewindLog

@MainActor
@Suite struct RoundTripTests {
    @Test(arguments: ScriptedSession.all.map(\.name))
    func everyStepOfAScriptedSessionComesBack(name: String) async throws {
        let folder = try TemporaryDirectory()
        let sink = try SQLiteSink(path: folder.path("s.rewind"))
        let host = RecordingTestHost(sink: sink)
        host.configuration.keyframeInterval = 8
        try await #require(ScriptedSession.named(name)).run(host: host, start: .testEpoch)
        try sink.close()

        let reader = try LogReader(path: folder.path("s.rewind"))
        let session = try reader.session(nil)
        let expected = (0...host.stepCounts[0]).map { host.expectedStates[0]($0)! }
        #expect(session.name == name)
        #expect(session.lastStep == expected.count - 1)
        #expect(session.eventCount == expected.count - 1)
        #expect(session.startedAt == .testEpoch)
        #expect(session.endedAt != nil)
        for step in expected.indices {
            #expect(try reader.state(of: session, at: step) == expected[step], "step \(step)")
        }
        var walked = 0
        try reader.walk(session, steps: 1...session.lastStep) { event, before, after in
            #expect(before == expected[event.step - 1])
            #expect(after == expected[event.step])
            #expect(event.digest == after.digest)
            walked += 1
        }
        #expect(walked == session.lastStep)
    }

    /// 100,000 steps of the login flow, and a shorter app session whose state is larger.
    @Test(arguments: [("login", 100_000), ("app", 10_000)])
    func aLongRandomSessionComesBackAtSampledSteps(flow: String, steps: Int) async throws {
        let folder = try TemporaryDirectory()
        let sink = try SQLiteSink(path: folder.path("random.rewind"))
        let host = RecordingTestHost(sink: sink)
        await RandomSession(flow: flow, seed: 2026, steps: steps)!.run(host: host, start: .testEpoch)
        try sink.close()

        let reader = try LogReader(path: folder.path("random.rewind"))
        let session = try reader.session(nil)
        let expected = host.expectedStates[0]
        #expect(session.lastStep == host.stepCounts[0])
        #expect(session.lastStep >= steps)
        var random = SeededGenerator(seed: 9)
        let samples = [0, 1, 255, 256, 257, session.lastStep] + (0..<200).map { _ in Int.random(in: 0...session.lastStep, using: &random) }
        for step in samples {
            #expect(try reader.state(of: session, at: step) == expected(step), "step \(step)")
        }
    }

    @Test func sessionsOfOneLogAreNumberedFromOne() async throws {
        let folder = try TemporaryDirectory()
        let sink = try SQLiteSink(path: folder.path("many.rewind"))
        let host = RecordingTestHost(sink: sink)
        for session in ScriptedSession.all { await session.run(host: host, start: .testEpoch) }
        try sink.close()

        let reader = try LogReader(path: folder.path("many.rewind"))
        let sessions = try reader.sessions()
        #expect(sessions.map(\.number) == Array(1...ScriptedSession.all.count))
        #expect(sessions.map(\.name) == ScriptedSession.all.map(\.name))
        #expect(sessions.map(\.flow) == ScriptedSession.all.map(\.flow))
        #expect(try reader.session("photos-happy-browse").number == 4)
        #expect(try reader.session("2").name == "login-invalid-then-fixed")
    }

    @Test func reopeningALogAddsSessionsAfterTheOnesItHolds() async throws {
        let folder = try TemporaryDirectory()
        for _ in 0..<2 {
            let sink = try SQLiteSink(path: folder.path("twice.rewind"))
            await ScriptedSession.named("login-happy")!.run(host: RecordingTestHost(sink: sink), start: .testEpoch)
            try sink.close()
        }
        let sessions = try LogReader(path: folder.path("twice.rewind")).sessions()
        #expect(sessions.map(\.number) == [1, 2])
        #expect(throws: LogError.self) { try LogReader(path: folder.path("twice.rewind")).session("login-happy") }
    }

    @Test func theInMemorySinkRebuildsEveryStepToo() async throws {
        let sink = InMemorySink.inMemory()
        let host = RecordingTestHost(sink: sink)
        host.configuration.keyframeInterval = 5
        await ScriptedSession.named("photos-thumbnail-error-retry")!.run(host: host, start: .testEpoch)
        let session = try #require(sink.sessions.first)
        #expect(session.isEnded)
        for step in 0...host.stepCounts[0] {
            #expect(try session.state(at: step) == host.expectedStates[0](step))
        }
    }
}
