import Foundation
import PhotoApp
import RewindCore
import RewindInspector
import RewindJSON
import RewindLog
import RewindReplay
import RewindTesting
import Testing

@MainActor
@Suite struct ReplayerTests {
    let folder: TemporaryDirectory
    let log: String

    init() async throws {
        folder = try TemporaryDirectory()
        log = folder.path("login.rewind")
        try await recordScript("login-invalid-then-fixed", into: log)
    }

    @Test func theCurrentReducersReplayTheRecordingClean() throws {
        let replays = try Replayer(registry: SeedFlows.registry).replay(path: log)
        #expect(replays.map(\.outcome) == [.matched])
        #expect(replays[0].replayedSteps == 28)
        #expect(replays[0].redactedSteps == 28)
        #expect(replays[0].unverifiableSteps.isEmpty)
    }

    /// Steps 6-8 lost (a gap marker, as a full queue leaves) and step 9 stored whole, as the
    /// recorder stores the step after a gap: replay goes on from step 9's recorded state, in
    /// order and when keeping states, rather than stepping the state of step 5.
    @Test func aGapIsSteppedOverFromTheRecordedStateAfterIt() throws {
        let reader = try LogReader(path: log)
        let whole = try reader.session(nil)
        let gapped = folder.path("gapped.rewind")
        let sink = try SQLiteSink(path: gapped)
        let session = try sink.beginSession(
            SessionHeader(
                name: "gapped", flow: whole.flow, startedAt: whole.startedAt, schemaVersion: whole.schemaVersion,
                initialState: try reader.state(of: whole, at: 0), initialDigest: try reader.state(of: whole, at: 0).digest,
                redactedPaths: Set(whole.redactedPaths)))
        let events = try reader.events(of: whole, steps: 1...whole.lastStep).filter { !(6...8).contains($0.step) }
        let recorded = try events.map { event in
            let state: RecordedEvent.StateRecord =
                if event.step == 9 { .keyframe(try reader.state(of: whole, at: 9)) } else if let keyframe = event.keyframe { .keyframe(keyframe) } else {
                    .patch(try #require(event.patch))
                }
            return RecordedEvent(
                step: event.step, time: event.time, origin: event.origin, actionName: event.actionName, action: event.action, cause: event.cause,
                outputs: event.outputs, effects: event.effects, digest: event.digest, state: state)
        }
        try sink.append(recorded, gaps: [RecordingGap(steps: 6...8, reason: "the recorder's queue was full")], redactedPaths: [], to: session)
        try sink.endSession(session)
        try sink.close()

        for keepingStates in [false, true] {
            let replay = try #require(try Replayer(registry: SeedFlows.registry).replay(path: gapped, keepingStates: keepingStates).first)
            #expect(replay.outcome == .matched, "keeping states: \(keepingStates)")
            #expect(replay.replayedSteps == 24, "28 steps, 3 lost, and step 9 taken as recorded")
            #expect(replay.replayedStates?.steps.count == (keepingStates ? 25 : nil), "a state for each step the log holds")
        }

        // A rewrite given fewer migrated actions than states is refused, not cut short.
        let gappedReader = try LogReader(path: gapped)
        let gappedSession = try gappedReader.session(nil)
        let states = try events.map { try gappedReader.state(of: gappedSession, at: $0.step) }
        let error = try #require(throws: LogError.self) {
            try LogRewriter(path: gapped).rewrite(
                session: gappedSession, initialState: try gappedReader.state(of: gappedSession, at: 0), states: states, actions: [],
                schemaVersion: gappedSession.schemaVersion)
        }
        #expect(error.message == "session #1 (gapped) has 25 recorded steps but 25 replayed states and 0 migrated actions")
    }

    @Test(arguments: [1, 9, 20, 28])
    func aBugPlantedAtStepKIsTheFirstDivergenceAtK(k: Int) throws {
        let flows = loginFlow { PlantedBug(base: $0, fromAction: k) { $0.username += "!" } }
        let replay = try #require(try Replayer(registry: flows).replay(path: log).first)
        guard case let .diverged(step, _, origin, changes) = replay.outcome else {
            Issue.record("expected a divergence, got \(replay.outcome)")
            return
        }
        #expect(step == k)
        #expect(origin == "login")
        #expect(changes.map(\.path.description) == ["username"])
        #expect(replay.replayedSteps == k)
    }

    @Test func theDivergenceReportNamesTheStepTheActionAndTheField() throws {
        let flows = loginFlow { PlantedBug(base: $0, fromAction: 8) { $0.errorMessage = "Fix it." } }
        let error = #expect(throws: ReplayFailure.self) { try verifyReplay(of: log, flows: flows) }
        #expect(
            error?.description == """
                FAILED  \(log) #1 (login-invalid-then-fixed): diverged at step 8 (login  didTapLogin); recorded → replayed:
                  ~ errorMessage: "Please correct the highlighted fields." → "Fix it."
                """)
    }

    @Test func aReducerThatReadsTheClockIsNondeterministicNotDivergent() throws {
        let flows = loginFlow { PlantedBug(base: $0, fromAction: 3) { $0.errorMessage = "at \(Date().timeIntervalSinceReferenceDate)" } }
        let replay = try #require(try Replayer(registry: flows).replay(path: log).first)
        guard case let .nondeterministic(step, action, _, changes) = replay.outcome else {
            Issue.record("expected nondeterminism, got \(replay.outcome)")
            return
        }
        #expect(step == 3)
        #expect(action == "didUpdatePassword")
        #expect(changes.map(\.path.description) == ["errorMessage"])
    }

    @Test func aReducerThatReadsMoreOfTheSecretThanItsLengthIsUnverifiableNotDivergent() throws {
        // Validation that wants a digit reads the password's characters, which the log never keeps.
        let flows = loginFlow {
            PlantedBug(base: $0, fromAction: 1) { state in
                if state.isPasswordValid == true { state.isPasswordValid = state.password.value.contains(where: \.isNumber) }
            }
        }
        let replay = try #require(try Replayer(registry: flows).replay(path: log).first)
        #expect(replay.outcome == .matched)
        // From the valid tap on, every step runs the check again.
        #expect(replay.unverifiableSteps == [26, 27, 28])
        #expect(
            ReplayReport.lines(replay, style: .plain) == [
                "ok      \(log) #1 (login-invalid-then-fixed): 28 steps replayed, every verifiable state matches (28 with redacted fields compared as placeholders; 3 unverifiable: steps 26, 27, 28 read more of a secret than its length)"
            ])
    }

    @Test func aReducerThatComparesTheSecretsCharactersIsUnverifiableNotDivergent() throws {
        // No filler could pass this check, so only knowing that the characters were read
        // tells it from a regression.
        let flows = loginFlow {
            PlantedBug(base: $0, fromAction: 1) { state in
                if state.isPasswordValid == true { state.isPasswordValid = state.password.value.hasPrefix("wonder") }
            }
        }
        let replay = try #require(try Replayer(registry: flows).replay(path: log).first)
        #expect(replay.outcome == .matched)
        #expect(replay.unverifiableSteps == [26, 27, 28])
    }

    @Test func aReducerThatLeavesTheSecretAloneStillDivergesWhenASecretIsPresent() throws {
        let flows = loginFlow {
            PlantedBug(base: $0, fromAction: 26) { state in
                if state.password.count > 3 { state.isPasswordValid = false }
            }
        }
        let replay = try #require(try Replayer(registry: flows).replay(path: log).first)
        guard case let .diverged(step, _, _, changes) = replay.outcome else {
            Issue.record("expected a divergence, got \(replay.outcome)")
            return
        }
        #expect(step == 26)
        #expect(changes.map(\.path.description) == ["isPasswordValid"])
        #expect(replay.unverifiableSteps.isEmpty)
    }

    @Test func updateAcceptsTheNewBehaviourAndThenReplayPasses() throws {
        let flows = loginFlow { PlantedBug(base: $0, fromAction: 8) { $0.errorMessage = "Fix it." } }
        let updated = try Replayer(registry: flows).update(path: log)
        #expect(updated.map(\.rewritten) == [true])
        #expect(try Replayer(registry: flows).replay(path: log).map(\.outcome) == [.matched])
        #expect(try LogReader(path: log).state(of: LogReader(path: log).session(nil), at: 8)[JSONPath("errorMessage")] == "Fix it.")
        let original = try Replayer(registry: SeedFlows.registry).replay(path: log).first?.outcome
        guard case .diverged(step: 8, _, _, _)? = original else {
            Issue.record("the old reducer now diverges at step 8, got \(String(describing: original))")
            return
        }
    }

    @Test func anUnregisteredFlowIsAUsageError() throws {
        #expect(
            throws: LogError(
                .invalidArgument, path: log, session: 1, "session #1 (login-invalid-then-fixed) is of flow 'login', which is not registered (known: photos)")
        ) {
            try Replayer(
                registry: ReplayRegistry([ReplayFlow("photos") { PhotosFeature(backend: FakeBackend(seed: 0, clock: SimulatedClock(start: Date()))) }])
            ).replay(path: log)
        }
    }
}
