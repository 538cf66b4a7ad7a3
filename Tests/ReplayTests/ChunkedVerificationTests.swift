import Foundation
import PhotoApp
import RewindCore
import RewindInspector
import RewindLog
import Testing

@testable import RewindReplay

@MainActor
@Suite struct ChunkedVerificationTests {
    let folder: TemporaryDirectory
    let log: String

    init() async throws {
        folder = try TemporaryDirectory()
        log = folder.path("login.rewind")
        try await recordScript("login-invalid-then-fixed", into: log)
    }

    private func verify(_ flows: ReplayRegistry, chunkSize: Int, log: String? = nil) throws -> Int? {
        let log = log ?? self.log
        let session = try LogReader(path: log).session(nil)
        let flow = try #require(flows["login"])
        #expect(ChunkedVerification.applies(to: session, flow: flow))
        return ChunkedVerification(path: log, session: session, flow: flow, chunkSize: chunkSize, workers: 3).redactedStepsIfEveryStepMatches()
    }

    @Test(arguments: [1, 5, 27, 28, 4_096])
    func everyChunkSizeFindsEveryStepMatchingAndCountsTheRedactedOnes(chunkSize: Int) throws {
        #expect(try verify(SeedFlows.registry, chunkSize: chunkSize) == 28)
    }

    @Test(arguments: [1, 5, 4_096])
    func aMismatchInAnyChunkIsNoAnswer(chunkSize: Int) throws {
        let flows = loginFlow { TappedLoginBug(base: $0) }
        #expect(try verify(flows, chunkSize: chunkSize) == nil)
    }

    /// Every state matches, but the tap at step 26 no longer starts its request: a chunk that
    /// compares states alone would answer.
    @Test(arguments: [1, 5, 4_096])
    func aStepThatAsksForOtherWorkIsNoAnswer(chunkSize: Int) throws {
        #expect(try verify(BehaviourReplayTests.tapWithoutRequest, chunkSize: chunkSize) == nil)
    }

    /// A session of format 3 says nothing of its steps' work: the cause of step 19 (step 18),
    /// in another chunk than it when chunks are a step long, must still start some.
    @Test(arguments: [1, 5, 4_096])
    func inAnOlderSessionACauseThatNoLongerStartsWorkIsNoAnswerAcrossChunks(chunkSize: Int) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let old = folder.path("old.rewind")
        try FileManager.default.copyItem(atPath: root.appendingPathComponent("Tests/Fixtures/login-happy-format3.rewind").path, toPath: old)
        #expect(try verify(SeedFlows.registry, chunkSize: chunkSize, log: old) == 20)
        #expect(try verify(BehaviourReplayTests.tapWithoutRequest, chunkSize: chunkSize, log: old) == nil)
    }
}

/// The login reducer with a bug on every tap of the login button, however many actions came
/// before: a bug each chunk meets on its own.
private struct TappedLoginBug: Reducer, Sendable {
    let base: LoginFeature

    func reduce(into state: inout LoginState, action: LoginAction) -> Effect<LoginAction> {
        let effect = base.reduce(into: &state, action: action)
        if case .didTapLogin = action { state.username += "!" }
        return effect
    }
}
