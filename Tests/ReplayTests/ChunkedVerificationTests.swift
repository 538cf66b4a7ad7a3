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

    private func verify(_ flows: ReplayRegistry, chunkSize: Int) throws -> Int? {
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
