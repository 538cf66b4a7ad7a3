import Foundation
import PhotoApp
import RewindCore
import RewindJSON
import RewindLog
import RewindReplay
import RewindTesting
import Testing

/// A reducer that behaves like `base` but for the effect it returns for the actions `matching`
/// picks, which `replace` changes: a change of behaviour planted where every state stays the
/// same, which a replay comparing states alone passes.
struct PlantedEffect<Base: Reducer & Sendable>: Reducer, Sendable {
    let base: Base
    let matching: @Sendable (Base.Action) -> Bool
    let replace: @Sendable (Effect<Base.Action>) -> Effect<Base.Action>

    func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
        let effect = base.reduce(into: &state, action: action)
        return matching(action) ? replace(effect) : effect
    }
}

/// Replay compares what each step asks for (its work, follow-up actions and outputs) with the
/// recording, at the exact step (DESIGN.md section 16).
@MainActor
@Suite struct BehaviourReplayTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    private func recorded(_ script: String) async throws -> String {
        let log = folder.path("\(script).rewind")
        try await recordScript(script, into: log)
        return log
    }

    private static func login(
        matching: @escaping @Sendable (LoginAction) -> Bool, replace: @escaping @Sendable (Effect<LoginAction>) -> Effect<LoginAction>
    ) -> ReplayRegistry {
        loginFlow { PlantedEffect(base: $0, matching: matching, replace: replace) }
    }

    /// The login tap with a valid form sets the same state but starts no request.
    static let tapWithoutRequest = login(matching: { $0 == .didTapLogin }, replace: { _ in .none })

    @Test func aLoginTapThatNoLongerRequestsIsCaughtAtItsStep() async throws {
        let log = try await recorded("login-invalid-then-fixed")
        let replay = try #require(try Replayer(registry: Self.tapWithoutRequest).replay(path: log).first)
        // Step 8 is a tap on an invalid form, which started nothing then either.
        #expect(replay.outcome == .behaviourChanged(step: 26, action: "didTapLogin", origin: "login", changes: [.noLongerStarts("auth.login")]))
        #expect(replay.replayedSteps == 26)
        let failure = #expect(throws: ReplayFailure.self) { try verifyReplay(of: log, flows: Self.tapWithoutRequest) }
        #expect(failure?.description == #"FAILED  \#(log) #1 (login-invalid-then-fixed): step 26 (login  didTapLogin) no longer starts "auth.login""#)
    }

    @Test func aThumbnailRetryThatNoLongerReloadsIsCaughtAtItsStep() async throws {
        let log = try await recorded("photos-thumbnail-error-retry")
        let flows = ReplayRegistry([
            ReplayFlow(PhotosFlow.name) {
                PlantedEffect(
                    base: PhotosFlow.reducer(backend: FakeBackend(seed: 0, clock: SimulatedClock(start: Date()))),
                    matching: { if case .thumbnail(_, .didTapRetry) = $0 { true } else { false } }, replace: { _ in .none })
            }
        ])
        let replay = try #require(try Replayer(registry: flows).replay(path: log).first)
        #expect(
            replay.outcome
                == .behaviourChanged(step: 18, action: "didTapRetry", origin: "photos/thumbnail[4]", changes: [.noLongerStarts("photos.thumbnail")]))
    }

    @Test func aDroppedOutputIsCaughtAtItsStep() async throws {
        let log = try await recorded("login-happy")
        let flows = Self.login(matching: { if case .loginResponse(.success) = $0 { true } else { false } }, replace: { _ in .none })
        let replay = try #require(try Replayer(registry: flows).replay(path: log).first)
        guard case let .behaviourChanged(step, action, _, changes) = replay.outcome, case let .noLongerEmits(output)? = changes.first else {
            Issue.record("expected a dropped output, got \(replay.outcome)")
            return
        }
        #expect(step == 19 && action == "loginResponse" && changes.count == 1)
        #expect(output[JSONPath("output._0.userDidLogin._0.username")] == "alice")
        #expect(
            ReplayReport.lines(replay, style: .plain) == [
                "FAILED  \(log) #1 (login-happy): step 19 (login  loginResponse) no longer emits output userDidLogin({3 fields})"
            ])
    }

    @Test func aStepThatNowAlsoSendsOrStartsMoreSaysWhat() async throws {
        let log = try await recorded("login-happy")
        let flows = Self.login(matching: { $0 == .didTapLogin }, replace: { .merge($0, .send(.didTapSignup), .run { _ in }) })
        let replay = try #require(try Replayer(registry: flows).replay(path: log).first)
        #expect(
            replay.outcome
                == .behaviourChanged(step: 18, action: "didTapLogin", origin: "login", changes: [.nowAlsoStarts(nil), .nowAlsoSends(["didTapSignup": [:]])]))
        #expect(
            ReplayReport.lines(replay, style: .plain).first?.hasSuffix(
                "step 18 (login  didTapLogin) now also starts an unnamed effect; now also sends didTapSignup") == true)
        let json = ReplayReport.json(replay)
        #expect(json[JSONPath("outcome")] == "behaviour_changed")
        #expect(json[JSONPath("behaviour")] == [["change": "now_also_starts", "name": .null], ["change": "now_also_sends", "action": ["didTapSignup": [:]]]])
    }

    /// A session recorded before format 5 says nothing of the work its steps started: the
    /// cause link of step 19 (the login's answer) proves that step 18 started some.
    @Test func aSessionOfAnOlderFormatIsCheckedByItsCauseLinks() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let log = folder.path("old.rewind")
        try FileManager.default.copyItem(atPath: root.appendingPathComponent("Tests/Fixtures/login-happy-format3.rewind").path, toPath: log)
        #expect(try Replayer(registry: SeedFlows.registry).replay(path: log).map(\.outcome) == [.matched])
        let replay = try #require(try Replayer(registry: Self.tapWithoutRequest).replay(path: log).first)
        #expect(replay.outcome == .behaviourChanged(step: 18, action: "didTapLogin", origin: "login", changes: [.noLongerStartsWork(result: 19)]))
        #expect(
            ReplayReport.lines(replay, style: .plain) == [
                "FAILED  \(log) #1 (login-happy): step 18 (login  didTapLogin) no longer starts the work that sent step 19"
            ])
        // Outputs were recorded in every format: a dropped one is named as in a new session.
        let dropped = Self.login(matching: { if case .loginResponse(.success) = $0 { true } else { false } }, replace: { _ in .none })
        let outcome = try Replayer(registry: dropped).replay(path: log).first?.outcome
        guard case .behaviourChanged(19, "loginResponse", "login", let changes)? = outcome, case .noLongerEmits? = changes.first else {
            Issue.record("expected a dropped output at step 19, got \(String(describing: outcome))")
            return
        }
    }

    @Test func updateAcceptsTheNewBehaviourAndThenReplayPasses() async throws {
        let log = try await recorded("login-happy")
        let updated = try Replayer(registry: Self.tapWithoutRequest).update(path: log)
        #expect(updated.map(\.rewritten) == [true])
        #expect(
            ReplayReport.updateLines(updated[0].replay, rewritten: true, style: .plain) == [
                #"updated \#(log) #1 (login-happy): accepted what the current reducer asks for from step 18 (login  didTapLogin): no longer starts "auth.login""#
            ])
        #expect(try Replayer(registry: Self.tapWithoutRequest).replay(path: log).map(\.outcome) == [.matched])
        let reader = try LogReader(path: log)
        let session = try reader.session(nil)
        #expect(session.formatVersion == 6)
        #expect(try reader.events(of: session, steps: 18...18).first?.effects == RecordedEffects())
        // The reducer of before now starts what the recording no longer says it does.
        let original = try Replayer(registry: SeedFlows.registry).replay(path: log).first?.outcome
        #expect(original == .behaviourChanged(step: 18, action: "didTapLogin", origin: "login", changes: [.nowAlsoStarts("auth.login")]))
    }

    @Test func minimizingKeepsTheStepsThatShowTheChangeOfBehaviour() async throws {
        let log = try await recorded("login-invalid-then-fixed")
        let actions = try RecordedActions(log: log, session: nil, registry: Self.tapWithoutRequest)
        let shrunk = try SessionShrinker(actions, goal: .diverging).shrink()
        guard case let .behaviourChanged(_, recordedStep, changes) = shrunk.finding else {
            Issue.record("expected a change of behaviour, got \(shrunk.finding)")
            return
        }
        #expect(recordedStep == 26 && changes == [.noLongerStarts("auth.login")])
        // The shortest session that still taps login on a valid form: a user name, a password, the tap.
        #expect(shrunk.steps.count <= 3)
        let written = folder.path("min.rewind")
        _ = try shrunk.write(to: written)
        let replay = try #require(try Replayer(registry: Self.tapWithoutRequest).replay(path: written).first)
        #expect(replay.outcome == .behaviourChanged(step: shrunk.steps.count, action: "didTapLogin", origin: "login", changes: [.noLongerStarts("auth.login")]))
    }

    @Test func aWhatIfReplaySaysWhichStepsNowAskForOtherWork() async throws {
        let log = try await recorded("login-invalid-then-fixed")
        let actions = try RecordedActions(log: log, session: nil, registry: SeedFlows.registry)
        // Without the password fixed, the last tap is on an invalid form again: no request.
        let passwords = actions.steps.filter { $0.step > 8 && $0.action[JSONPath("didUpdatePassword")] != nil }.map(\.step)
        let whatIf = try WhatIfReplay(actions, skipping: Set(passwords))
        #expect(whatIf.behaviourChanges.map(\.step) == [26])
        #expect(whatIf.behaviourChanges.first?.changes == [.noLongerStarts("auth.login")])
    }
}
