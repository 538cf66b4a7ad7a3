import Foundation
import PhotoApp
import RewindCore
import Testing

/// Keeps each session's steps as canonical-ish JSON lines, whatever the flow's types.
@MainActor
final class JSONTraceHost: SessionHost {
    var sessions: [(name: String?, flow: String, lines: [String])] = []
    private var traces: [() -> [String]] = []

    func middleware<State: RecordableState, Action: RecordableAction>(
        for session: SessionDescriptor, state: State.Type, action: Action.Type
    ) -> [any StoreMiddleware<State, Action>] {
        let trace = Trace<State, Action>()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        traces.append {
            trace.steps.map { step in
                let action = try! String(decoding: encoder.encode(step.action), as: UTF8.self)
                let state = try! String(decoding: encoder.encode(step.state), as: UTF8.self)
                return "\(step.context.step) \(step.context.cause ?? 0) \(step.action.origin) \(action) \(state)"
            }
        }
        sessions.append((session.name, session.flow, []))
        return [trace]
    }

    func sessionDidFinish(_ session: SessionDescriptor) {
        sessions[sessions.count - 1].lines = traces[sessions.count - 1]()
    }
}

@MainActor
@Suite struct DriverTests {
    @Test func everyNamedScriptExists() {
        let names = ScriptedSession.all.map(\.name)
        for required in [
            "login-happy", "login-invalid-then-fixed", "login-network-error-retry", "photos-happy-browse",
            "photos-list-error-retry", "photos-thumbnail-error-retry", "app-full",
        ] {
            #expect(names.contains(required), "missing \(required)")
        }
        #expect(Set(names).count == names.count)
    }

    @Test(arguments: ScriptedSession.all.map(\.name))
    func scriptedSessionsAreTheSameOnEveryRun(name: String) async throws {
        let session = try #require(ScriptedSession.named(name))
        let first = JSONTraceHost(), second = JSONTraceHost()
        await session.run(host: first, start: .testEpoch)
        await session.run(host: second, start: .testEpoch)
        #expect(first.sessions.count == 1)
        #expect(first.sessions[0].flow == session.flow)
        #expect(!first.sessions[0].lines.isEmpty)
        #expect(first.sessions[0].lines == second.sessions[0].lines)
    }

    @Test func scriptedSessionsEndWhereTheirStoryEnds() async throws {
        func finalState(_ name: String) async throws -> String {
            let host = JSONTraceHost()
            try await #require(ScriptedSession.named(name)).run(host: host, start: .testEpoch)
            return try #require(host.sessions.first?.lines.last)
        }
        #expect(try await finalState("login-happy").contains(#""status":"succeeded""#))
        #expect(try await finalState("login-invalid-then-fixed").contains(#""status":"succeeded""#))
        #expect(try await finalState("login-network-error-retry").contains(#""status":"succeeded""#))
        #expect(try await finalState("photos-list-error-retry").contains(#""status":"loaded""#))
        #expect(try await !finalState("photos-thumbnail-error-retry").contains(#""status":"failed""#))
        #expect(try await finalState("app-full").contains(#"didTapLogout"#))
    }

    @Test(arguments: ["login", "photos", "app"])
    func theSameSeedPlaysTheSameRandomSession(flow: String) async throws {
        let session = try #require(RandomSession(flow: flow, seed: 42, steps: 300))
        let first = JSONTraceHost(), second = JSONTraceHost()
        await session.run(host: first, start: .testEpoch)
        await session.run(host: second, start: .testEpoch)
        #expect(first.sessions[0].lines.count >= 300)
        #expect(first.sessions[0].lines == second.sessions[0].lines)

        let other = JSONTraceHost()
        await RandomSession(flow: flow, seed: 43, steps: 300)!.run(host: other, start: .testEpoch)
        #expect(other.sessions[0].lines != first.sessions[0].lines)
    }

    @Test func theRandomAppUserReachesEveryScreen() async {
        let host = JSONTraceHost()
        await RandomSession(flow: "app", seed: 7, steps: 2_000)!.run(host: host, start: .testEpoch)
        let lines = host.sessions[0].lines.joined(separator: "\n")
        for name in ["didTapLogin", "userDidLogin", "photosResponse", "thumbnailResponse", "imageResponse", "didTapClose"] {
            #expect(lines.contains(name), "the random user never sent \(name)")
        }
    }

    @Test func anUnknownFlowHasNoRandomSession() {
        #expect(RandomSession(flow: "settings", seed: 1, steps: 10) == nil)
    }
}
